/**
 * The messages of this process (the window, or the core): one language at a time. `t(key, args)`
 * gives a message in it; `useLanguage` loads a language's catalogue (English is in the start-up,
 * the others are chunks of their own, loaded when chosen) and makes it current.
 *
 * The window's components call the reactive `t` of src/language, which reads this one.
 */
// All of English; the window's build takes the messages src/ names instead (generated/en-window.ts,
// electron.vite.config.ts): the core's own reach a window as text.
import english from './generated/en';
import type { MessageKey, Messages } from './generated/messages';
import { useZodLanguage } from '../basics/zod';
import type { Language } from './languages';

export type { MessageKey, Messages };
/** The arguments of a message: none, or one object of its parameters. */
export type MessageArgs<K extends MessageKey> = Parameters<Messages[K]>;

const LOADERS: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => Promise.resolve({ default: english }),
  es: () => import('./generated/es'),
  'en-XA': () => import('./generated/en-XA'),
};

let current: { language: Language; messages: Partial<Messages> } = { language: 'en', messages: english };

/**
 * A message the code asked for and the loaded catalogue does not have: in the window, an English
 * message `npm run messages` did not see src/ name (a key made at run time from pieces it could
 * not see). Said on the console (the e2e suite fails on console errors); staff see the key, not nothing.
 */
function missing(key: string): string {
  console.error(`the message ${key} is not loaded`);
  return key;
}

/** The message `key` in the current language. */
export function t<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  const message = current.messages[key] as ((d?: unknown) => string) | undefined;
  return message ? message(args[0]) : missing(key);
}

/** The message `key` in English, whatever the current language (a log, a file the service reads). */
export function tEnglish<K extends MessageKey>(key: K, ...args: MessageArgs<K>): string {
  const message = english[key] as ((d?: unknown) => string) | undefined;
  return message ? message(args[0]) : missing(key);
}

export const currentLanguage = (): Language => current.language;

/**
 * Loads `language`'s messages and makes them current, with zod's own fallback messages
 * (src/shared/basics/zod.ts); resolves once they are. The one way a process changes its language.
 */
export async function useLanguage(language: Language): Promise<void> {
  if (current.language === language) return;
  const [{ default: messages }] = await Promise.all([LOADERS[language](), useZodLanguage(language)]);
  current = { language, messages };
}
