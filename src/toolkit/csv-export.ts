/**
 * A list of animals as a CSV file: the import's columns (name, category, status) plus the
 * category's name and the animal's id, the header in the language shown (csv-columns.ts: the
 * import reads it back in any language), ids and statuses exactly as the service gave them
 * (decimal text, never through a float; `available`, not its translation). Formula-looking cells are neutralised (see csv-file.ts). UTF-8 with a byte
 * order mark and CRLF line ends (RFC 4180), so Excel on Windows reads accents right.
 */
import Papa from 'papaparse';
import type { Animal } from '../shared/records/animal';
import type { CategoryLabels } from '../shared/records/categories';
import { exportHeader } from './csv-columns';
import { FORMULA_START } from './csv-file';

export function animalsToCsv(animals: readonly Animal[], labels: CategoryLabels): string {
  const data = animals.map((animal) => [
    animal.name,
    animal.categoryId,
    labels.labelOf(animal.categoryId) ?? '',
    animal.status ?? '',
    animal.id,
  ]);
  const text = Papa.unparse(
    { fields: exportHeader(), data },
    { escapeFormulae: FORMULA_START, newline: '\r\n', quotes: false },
  );
  return `\uFEFF${text}\r\n`;
}

/** A file name for an export: `animals-local-demo-2026-11-23.csv` (letters, digits and dashes only). */
export function exportFileName(what: string, profileName: string, at: Date): string {
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'profile';
  const day = [at.getFullYear(), at.getMonth() + 1, at.getDate()].map((n) => String(n).padStart(2, '0')).join('-');
  return `${slug(what)}-${slug(profileName)}-${day}.csv`;
}
