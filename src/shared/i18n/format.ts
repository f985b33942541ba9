/**
 * Numbers, dates and times as the current language writes them (Intl). One formatter per
 * language and style, made on first use.
 */
import { intlLocale } from './languages';
import { currentLanguage } from './translate';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>();

function formatter<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.ListFormat>(
  kind: string,
  options: object,
  make: (locale: string) => F,
): F {
  const locale = intlLocale(currentLanguage());
  const id = `${locale} ${kind} ${JSON.stringify(options)}`;
  let found = cache.get(id) as F | undefined;
  if (!found) {
    found = make(locale);
    cache.set(id, found);
  }
  return found;
}

/** 1,234 (English), 1234 / 12.345 (Spanish). */
export const formatNumber = (value: number, options: Intl.NumberFormatOptions = {}): string =>
  formatter('number', options, (locale) => new Intl.NumberFormat(locale, options)).format(value);

/** A moment, by default as date and time ("24 Nov 2026, 14:05"). */
export const formatDateTime = (
  at: number | Date,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' },
): string => formatter('date', options, (locale) => new Intl.DateTimeFormat(locale, options)).format(at);

/** A time of day ("14:05:09"). */
export const formatTime = (at: number | Date, options: Intl.DateTimeFormatOptions = { timeStyle: 'medium' }): string =>
  formatDateTime(at, options);

/** "a, b and c" / "a, b y c". */
export const formatList = (items: readonly string[], type: Intl.ListFormatType = 'conjunction'): string =>
  formatter('list', { type }, (locale) => new Intl.ListFormat(locale, { type })).format(items);
