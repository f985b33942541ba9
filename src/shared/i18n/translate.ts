/**
 * The messages of this process (the window, or the core): one language at a time. `t(key, args)`
 * gives a message in it; `useLanguage` loads a language's catalogue (English is in the start-up,
 * the others are chunks of their own, loaded when chosen) and makes it current.
 *
 * The window's components call the reactive `t` of src/i18n, which reads this one.
 */
import en from './generated/en';
import type { MessageKey, Messages } from './generated/messages';
import type { Language } from './languages';

export type { MessageKey, Messages };
/** The arguments of a message: none, or one object of its parameters. */
export type MessageArgs<K extends MessageKey> = Parameters<Messages[K]>;

const LOADERS: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => Promise.resolve({ default: en }),
  es: () => import('./generated/es'),
  'en-XA': () => import('./generated/en-XA'),
};

let current: { language: Language; messages: Messages } = { language: 'en', messages: en };

/** The message `key` in the current language. */
export function t<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  const message = current.messages[key] as (d?: unknown) => string;
  return message(args[0]);
}

/** The message `key` in English, whatever the current language (a log, a file the service reads). */
export function tEnglish<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  const message = en[key] as (d?: unknown) => string;
  return message(args[0]);
}

export const currentLanguage = (): Language => current.language;

/** Loads `language`'s messages and makes them current; resolves once they are. */
export async function useLanguage(language: Language): Promise<void> {
  if (current.language === language) return;
  const { default: messages } = await LOADERS[language]();
  current = { language, messages };
}
