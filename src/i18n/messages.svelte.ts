/**
 * The window's `t` and formatters: the shared ones (src/shared/i18n), read through a rune so that
 * every template and `$derived` that used them is drawn again when the language changes.
 */
import * as shared from '../shared/i18n';
import type { AnimalStatus } from '../shared/animal';
import type { MessageArgs, MessageKey } from '../shared/i18n';

const shown = $state({ language: shared.currentLanguage() });

/** LanguageStore calls it once a language's messages are current. */
export function languageChanged(): void {
  shown.language = shared.currentLanguage();
}

/** The message `key` in the language shown. */
export function t<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  void shown.language;
  return shared.t(key, ...args);
}

export function formatNumber(...args: Parameters<typeof shared.formatNumber>): string {
  void shown.language;
  return shared.formatNumber(...args);
}

export function formatDateTime(...args: Parameters<typeof shared.formatDateTime>): string {
  void shown.language;
  return shared.formatDateTime(...args);
}

export function formatTime(...args: Parameters<typeof shared.formatTime>): string {
  void shown.language;
  return shared.formatTime(...args);
}

export function formatList(...args: Parameters<typeof shared.formatList>): string {
  void shown.language;
  return shared.formatList(...args);
}

/** A status of the service as staff read it ("available" / "disponible"); the service's value stays as it is. */
export function statusLabel(status: AnimalStatus | undefined | null): string {
  return status ? t(`status.${status}`) : t('status.none');
}
