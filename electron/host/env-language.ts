/**
 * The language of a command line (the browser host's, the demo's): the system's as the POSIX locale
 * variables say it for messages, LC_ALL over LC_MESSAGES over LANG (the first one set and not
 * empty: "es_ES.UTF-8" → es). "C", "POSIX" or nothing: English.
 */
import { type Language, matchLanguage, useLanguage } from '../../src/shared/i18n';

const LOCALE_VARIABLES = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const;

/** The language the environment asks for messages in. */
export function envLanguage(env: NodeJS.ProcessEnv = process.env): Language {
  const set = LOCALE_VARIABLES.map((name) => env[name]).find((value) => value !== undefined && value !== '');
  return set === undefined ? 'en' : matchLanguage([set]);
}

/** Makes the environment's language the process's (the catalogue and zod's own messages). */
export async function useEnvLanguage(env: NodeJS.ProcessEnv = process.env): Promise<Language> {
  const language = envLanguage(env);
  await useLanguage(language);
  return language;
}
