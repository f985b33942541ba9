/**
 * The window's `t` and formatters: the shared ones (src/shared/i18n), each read subscribing the
 * template, `$derived` or `$effect` that called it (Svelte's `createSubscriber`), so that all of
 * them are drawn again when the language changes. A plain module, no runes: code that runs outside
 * Svelte's compiler (the benchmarks under tsx) imports the window's stores too.
 */
import { createSubscriber } from 'svelte/reactivity';
import * as shared from '../shared/i18n';
import type { AnimalStatus } from '../shared/records/animal';
import { createEmitter } from '../shared/basics/emitter';
import type { MessageArgs, MessageKey } from '../shared/i18n';

/** Whatever read the messages is drawn again (once another language's are current). */
const languageChanged = createEmitter();
const read = createSubscriber((update) => languageChanged.on(update));

/** Makes `language` the window's (its catalogue loaded) and draws again what read the one before. */
export async function showLanguage(language: shared.Language): Promise<void> {
  await shared.useLanguage(language);
  languageChanged.emit();
}

/** The message `key` in the language shown. */
export function t<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  read();
  return shared.t(key, ...args);
}

export function formatNumber(...args: Parameters<typeof shared.formatNumber>): string {
  read();
  return shared.formatNumber(...args);
}

export function formatDateTime(...args: Parameters<typeof shared.formatDateTime>): string {
  read();
  return shared.formatDateTime(...args);
}

export function formatTime(...args: Parameters<typeof shared.formatTime>): string {
  read();
  return shared.formatTime(...args);
}

export function formatList(...args: Parameters<typeof shared.formatList>): string {
  read();
  return shared.formatList(...args);
}

/** A status of the service as staff read it ("available" / "disponible"); the service's value stays as it is. */
export function statusLabel(status: AnimalStatus | undefined | null): string {
  return status ? t(`status.${status}`) : t('status.none');
}
