/**
 * The languages of the app and how one is picked from a list of preferred ones (the system's:
 * Electron's `app.getPreferredSystemLanguages()`, a browser's `navigator.languages`).
 */
import { z } from '../basics/zod';

/** The languages staff can choose, with their own names (a language is named in itself in a picker). */
export const LANGUAGES = ['en', 'es'] as const;
/** A language staff can choose (the pseudo-locale is not one). */
export type StaffLanguage = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Readonly<Record<StaffLanguage, string>> = {
  en: 'English',
  es: 'Español',
};
/**
 * The pseudo-locale: English accented, marked ⟦…⟧ and 40 % longer (docs/i18n.md). Never offered
 * to staff; the tests choose it to find text that did not come from a catalogue.
 */
export const PSEUDO_LANGUAGE = 'en-XA';

export const Language = z.enum([...LANGUAGES, PSEUDO_LANGUAGE]);
export type Language = z.infer<typeof Language>;
/** What staff chose: a language, or the system's (the default). */
export const LanguageChoice = z.union([Language, z.literal('system')]);
export type LanguageChoice = z.infer<typeof LanguageChoice>;

/** The tag Intl formats with: the pseudo-locale's numbers and dates are English. */
export const intlLocale = (language: Language): string => (language === PSEUDO_LANGUAGE ? 'en' : language);

/**
 * The first of `preferred` (BCP 47 tags, most preferred first) whose language the app has, by
 * its primary subtag ("es-MX" → es); English when none is.
 */
export function matchLanguage(preferred: readonly string[]): StaffLanguage {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    const found = LANGUAGES.find((language) => language === primary);
    if (found) return found;
  }
  return 'en';
}
