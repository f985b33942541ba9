/**
 * The names of the spreadsheet columns, from the message catalogues: an export writes them in
 * the language shown; an import reads them in any of the app's languages, whatever the language
 * shown (a file goes from desk to desk), case- and accent-insensitive ("Categoria" is
 * "categoría"), spaces and underscores ignored ("category_id").
 */
import { t } from '../language';
import type { Language, Messages } from '../shared/i18n';
// Every language's words at once, not only the one shown (src/shared/i18n keeps one language at a
// time): a file goes from desk to desk. English is in the start-up (the window's build takes the
// messages src/ names); Spanish, a chunk of its own, loads with the import and the export.
// eslint-disable-next-line adoption/subsystem-entry -- the catalogues themselves, not the current language
import en from '../shared/i18n/generated/en';
// eslint-disable-next-line adoption/subsystem-entry -- as above
import es from '../shared/i18n/generated/es';
import { matchKey } from '../shared/records/text-match';

export type Column = 'name' | 'category' | 'status';

/** The staff-facing languages (the pseudo-locale is read through the language shown). */
const CATALOGUES: Record<Exclude<Language, 'en-XA'>, Messages> = { en, es };

type HeaderKey = 'toolkit.columnName' | 'toolkit.columnCategory' | 'toolkit.columnStatus' | 'toolkit.columnCategoryId';

/** The message naming each column the import reads. */
const COLUMN_NAMES: Record<Column, HeaderKey> = {
  name: 'toolkit.columnName',
  category: 'toolkit.columnCategory',
  status: 'toolkit.columnStatus',
};

/** Every header name the import reads, with its column: the columns' names, and "category id". */
const HEADER_NAMES: readonly (readonly [HeaderKey, Column])[] = [
  ['toolkit.columnName', 'name'],
  ['toolkit.columnCategory', 'category'],
  ['toolkit.columnCategoryId', 'category'],
  ['toolkit.columnStatus', 'status'],
];

/** A header cell as compared: `matchKey` (case, accents, spaces) without spaces and underscores. */
export function headerKey(cell: string): string {
  return matchKey(cell).replace(/[\s_]/g, '');
}

/** The column a header cell names, in any language, or null when it names none the import uses. */
export function columnOf(cell: string): Column | null {
  const wanted = headerKey(cell);
  if (wanted === '') return null;
  for (const [key, column] of HEADER_NAMES) {
    const names = [t(key), ...Object.values(CATALOGUES).map((messages) => messages[key]())];
    if (names.some((name) => headerKey(name) === wanted)) return column;
  }
  return null;
}

/** A column's name in the language shown ("name" / "nombre"). */
export const columnName = (column: Column): string => t(COLUMN_NAMES[column]);

/** The header row of an export, in the language shown: name, category, category name, status, id. */
export function exportHeader(): string[] {
  return [
    t('toolkit.columnName'),
    t('toolkit.columnCategory'),
    t('toolkit.columnCategoryName'),
    t('toolkit.columnStatus'),
    t('toolkit.columnId'),
  ];
}
