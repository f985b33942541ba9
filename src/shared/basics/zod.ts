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
 * zod's own messages (the fallback of a check without words of its own) follow the language that
 * `useZodLanguage` was last given: whoever changes the process's language calls it beside
 * `useLanguage` (the core: app-core.ts; the main process; the command lines). zod's Spanish locale is
 * a chunk of its own, loaded then (the window's start-up keeps English only). This module imports
 * nothing of src/shared/i18n: that imports this one (languages.ts), and the preload, which never
 * changes language, must not carry the locale's chunk. The contract's own messages come from the
 * catalogues (`{ error: () => t(…) }`, said when a value is parsed).
 */
import * as z from 'zod/mini';
// zod's English locale on its own: the index of zod's locales imports every one of them.
import en from 'zod/v4/locales/en.js';

type LocaleError = z.core.$ZodErrorMap;

const english = en().localeError;
/** zod's locale of the language last asked for, once loaded; null: English. */
let chosen: { language: string; localeError: LocaleError | null } = { language: 'en', localeError: null };

z.config({ localeError: (issue) => (chosen.localeError ?? english)(issue) });

/**
 * zod's own messages in `language` from now on: zod's Spanish locale for Spanish (loaded the first
 * time), English for anything else (the pseudo-locale too).
 */
export async function useZodLanguage(language: string): Promise<void> {
  if (language !== 'es') {
    chosen = { language, localeError: null };
    return;
  }
  chosen = { language, localeError: chosen.localeError };
  const { default: spanish } = await import('zod/v4/locales/es.js');
  // A later choice wins over a load that finished after it.
  if (chosen.language === language) chosen = { language, localeError: spanish().localeError };
}

export { z };
