/** Quick search by name and sorting by name or id, shared by the list and the saved view. */
import type { Animal } from '../shared/records/animal';
import { currentLanguage, intlLocale, type MessageKey } from '../shared/i18n';
import { compareInt64 } from '../shared/records/int64';

export type SortKey = 'service' | 'name' | 'id';

/** The messages naming each sort (SearchSort shows them). */
export const SORT_LABEL = {
  service: 'list.sortService',
  name: 'list.sortName',
  id: 'list.sortId',
} as const satisfies Record<SortKey, MessageKey>;

/** The collator of the current language (names sort as that language orders its letters: ñ after n). */
let collator: { locale: string; compare: Intl.Collator['compare'] } | null = null;

/** Compares two names as the name sort does (case- and accent-insensitive, numbers by value). */
export function compareNames(a: string, b: string): number {
  const locale = intlLocale(currentLanguage());
  if (collator?.locale !== locale) {
    collator = { locale, compare: new Intl.Collator(locale, { sensitivity: 'base', numeric: true }).compare };
  }
  return collator.compare(a, b);
}

/** The form of a name (or of a search) that search compares: lower case, accents removed. */
export function searchKey(text: string): string {
  return text.toLocaleLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

/** Rows whose name contains `search` (case- and accent-insensitive), in the chosen order. */
export function searchAndSort<T extends { animal: Animal }>(rows: readonly T[], search: string, sort: SortKey): T[] {
  const needle = searchKey(search.trim());
  const matching = needle ? rows.filter((row) => searchKey(row.animal.name).includes(needle)) : [...rows];
  if (sort === 'name') {
    matching.sort((a, b) => compareNames(a.animal.name, b.animal.name) || compareInt64(a.animal.id, b.animal.id));
  } else if (sort === 'id') {
    matching.sort((a, b) => compareInt64(a.animal.id, b.animal.id));
  }
  return matching;
}
