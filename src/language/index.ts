/**
 * The window's language (docs/i18n.md): which one is shown (LanguageStore), and `t` and the Intl
 * formatters every component and store uses, redrawn when it changes.
 */
export { LANGUAGE_STORAGE_KEY, LanguageStore } from './language.svelte';
export { formatDateTime, formatList, formatNumber, formatTime, showLanguage, statusLabel, t } from './messages';
export { aroundMark, clockTime, MARK } from './markup';
