/**
 * The one zod of the contract and the renderer: `zod/mini`, whose functions are separate exports
 * a bundler can leave out when unused (classic `zod` brings its whole API, JSON Schema included,
 * into every bundle: 26 KiB of the window's start-up, gzipped; docs/performance.md "Start-up
 * weight"). Its schemas are the same core types classic zod builds on, so the main process (which
 * may use classic `zod` for its own files) composes and parses them alike.
 *
 * zod/mini has no messages of its own ("Invalid input" for every issue) until a locale is set:
 * English here, as classic zod sets it, so a message staff read is the same in every process. Every
 * module of src/ imports `z` from here (eslint `no-restricted-imports`), so the locale is set
 * before any schema parses.
 *
 * zod's own messages (the fallback of a check without words of its own) follow the language of
 * this process: the locale map asks `currentLanguage()` at parse time. zod's Spanish locale is a
 * chunk of its own, loaded by `useZodLanguage('es')` (the window's start-up keeps English only);
 * until it is loaded, zod's fallbacks stay English. The contract's own messages come from the
 * catalogues (`{ error: () => t(…) }`, evaluated at parse time).
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
// translate.ts, not the entry ./i18n: the entry imports languages.ts, which imports this module (a cycle).
// eslint-disable-next-line adoption/subsystem-entry
import { currentLanguage } from './i18n/translate';

type LocaleError = z.core.$ZodErrorMap;

const english = en().localeError;
/** zod's locales loaded so far, by the app's language (English is always there). */
const loaded: { es?: LocaleError } = {};
let loading: Promise<void> | null = null;

z.config({
  localeError: (issue) => {
    const language = currentLanguage();
    if (language === 'es') {
      if (loaded.es) return loaded.es(issue);
      // Chosen without useZodLanguage: load it now for the next message; this one stays English.
      void useZodLanguage('es');
    }
    return english(issue);
  },
});

/**
 * Loads zod's own messages for `language` (zod's Spanish locale when Spanish is chosen), so its
 * fallbacks follow the language from then on. English and the pseudo-locale need nothing.
 */
export function useZodLanguage(language: string): Promise<void> {
  if (language !== 'es' || loaded.es) return Promise.resolve();
  loading ??= import('zod/v4/locales/es.js').then(
    ({ default: spanish }) => {
      loaded.es = spanish().localeError;
    },
    () => {
      loading = null; // English meanwhile; tried again when next asked
    },
  );
  return loading;
}

export { z };
