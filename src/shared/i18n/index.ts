/**
 * The app's words in one place (docs/i18n.md): the message catalogues
 * (catalogues/<language>/{core,window}/<area>.json, ICU MessageFormat, compiled to generated/ by
 * `npm run messages`), the current language of this process, and Intl formatting in it. Shared by
 * the core and the window.
 */
export { formatDateTime, formatList, formatNumber, formatTime } from './format';
export {
  intlLocale,
  Language,
  LANGUAGE_NAMES,
  LanguageChoice,
  LANGUAGES,
  matchLanguage,
  PSEUDO_LANGUAGE,
  type StaffLanguage,
} from './languages';
export {
  currentLanguage,
  type MessageArgs,
  type MessageKey,
  type Messages,
  t,
  tEnglish,
  useLanguage,
} from './translate';
