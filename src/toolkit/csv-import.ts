/**
 * The preview of a spreadsheet import: every row of a CSV file (header row; comma or semicolon;
 * columns name, category — an ID or a known category name — and status, optional, named in any
 * of the app's languages: csv-columns.ts) with its
 * validation by the shared contract (`NewAnimal`), its row number as the spreadsheet shows it (the
 * header is row 1) and the duplicates it matches. Pure: nothing is written here; staff confirm
 * the preview and the valid rows then go into the outbox (Outbox.enqueueMany).
 */
import Papa from 'papaparse';
import { formatList, statusLabel, t } from '../language';
import { ANIMAL_STATUSES, type AnimalStatus, NewAnimal } from '../shared/records/animal';
import type { CategoryLabels } from '../shared/records/categories';
import { canonicalInt64, isInt64String } from '../shared/records/int64';
import { matchKey } from '../shared/records/text-match';
import type { DuplicateIndex, DuplicateMatch } from '../storage';
import { type Column, columnName, columnOf } from './csv-columns';
import { IMPORT_MAX_ROWS, looksLikeFormula, unneutralise } from './csv-file';

export type { Column } from './csv-columns';

/** The longest name the service takes (the contract's `NewAnimal`). */
const NAME_MAX = 200;

export interface ImportRow {
  /** The row number in the spreadsheet (the header is row 1). */
  row: number;
  name: string;
  category: string;
  status: string;
  /** The creation payload when the row is valid, else null. */
  animal: NewAnimal | null;
  /** Why the row cannot be imported (empty when it can). */
  problems: string[];
  /** Animals on this device (or earlier rows) with the same name and category. */
  duplicates: DuplicateMatch[];
}

export interface ImportPreview {
  ok: true;
  delimiter: ',' | ';';
  rows: ImportRow[];
  /** Header cells that name no column the import uses (e.g. `id`, `category name` of an export). */
  ignoredColumns: string[];
  emptyRows: number;
}

export type PreviewResult = ImportPreview | { ok: false; message: string };

/** How the header row must be, naming the columns in the language shown. */
const how = () =>
  t('toolkit.importHow', { name: columnName('name'), category: columnName('category'), status: columnName('status') });

/** The delimiter of the header row: the one it uses (commas win a tie; none means one column). */
function delimiterOf(text: string): ',' | ';' {
  const header = text.slice(0, text.search(/\r?\n|$/));
  const commas = header.split(',').length - 1;
  const semicolons = header.split(';').length - 1;
  return semicolons > commas ? ';' : ',';
}

interface Context {
  labels: CategoryLabels;
  duplicates: DuplicateIndex;
}

function categoryOf(cell: string, labels: CategoryLabels): { id: string } | { problem: string } {
  const text = unneutralise(cell).trim();
  if (text === '') return { problem: t('toolkit.importCategoryMissing') };
  if (/^-?\d+$/.test(text)) {
    const id = canonicalInt64(text);
    return isInt64String(id) ? { id } : { problem: t('toolkit.importCategoryIdTooLarge', { id: text }) };
  }
  const id = labels.idOf(text);
  if (id !== null) return { id };
  if (looksLikeFormula(text)) return { problem: t('toolkit.importCategoryFormula', { category: text }) };
  return { problem: t('toolkit.importCategoryUnknown', { category: text }) };
}

/**
 * A status cell: the service's value (`available`) or the value as the language shown writes it
 * (`disponible`), case- and accent-insensitive; empty lets the service decide.
 */
function statusOf(cell: string): { status?: AnimalStatus } | { problem: string } {
  const text = matchKey(unneutralise(cell));
  if (text === '') return {};
  const status = ANIMAL_STATUSES.find((value) => value === text || matchKey(statusLabel(value)) === text);
  if (status) return { status };
  return {
    problem: t('toolkit.importStatusUnknown', {
      status: cell.trim(),
      available: statusLabel('available'),
      pending: statusLabel('pending'),
      sold: statusLabel('sold'),
    }),
  };
}

function nameProblem(cell: string): string | null {
  if (!looksLikeFormula(cell)) return null;
  // A tab or a carriage return is white space to trimStart: looked at before it.
  const first = /^[\t\r]/.test(cell) ? 'tab' : (cell.trimStart()[0] ?? '');
  return t('toolkit.importNameFormula', { first, cell: cell.trimStart() });
}

function checkRow(
  cells: string[],
  columns: Map<Column, number>,
  width: number,
  row: number,
  context: Context,
): ImportRow {
  const cell = (column: Column) => {
    const index = columns.get(column);
    return index === undefined ? '' : (cells[index] ?? '');
  };
  const rawName = cell('name');
  const name = unneutralise(rawName);
  const category = cell('category');
  const status = cell('status');
  const problems: string[] = [];
  if (cells.length > width) {
    problems.push(t('toolkit.importTooManyCells', { cells: cells.length, width }));
  }
  const formula = name === rawName ? nameProblem(rawName) : null;
  if (formula) problems.push(formula);
  const categoryResult = categoryOf(category, context.labels);
  if ('problem' in categoryResult) problems.push(categoryResult.problem);
  const statusResult = statusOf(status);
  if ('problem' in statusResult) problems.push(statusResult.problem);
  let animal: NewAnimal | null = null;
  const parsed = NewAnimal.safeParse({
    name,
    categoryId: 'id' in categoryResult ? categoryResult.id : '0',
    ...('status' in statusResult ? { status: statusResult.status } : {}),
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.path[0] !== 'name') continue;
      if (name.trim() === '') problems.push(t('toolkit.importNameMissing'));
      else if (name.trim().length > NAME_MAX) problems.push(t('toolkit.importNameTooLong', { max: NAME_MAX }));
      else problems.push(t('toolkit.importNameInvalid', { reason: issue.message }));
    }
  } else if (problems.length === 0) animal = parsed.data;
  const duplicates = animal ? context.duplicates.find(animal) : [];
  if (animal) context.duplicates.addFileRow(animal, row);
  return { row, name, category: unneutralise(category), status, animal, problems, duplicates };
}

/** Reads the file's rows into a preview, or says in one message why the file cannot be imported. */
export function previewCsv(text: string, context: Context): PreviewResult {
  const delimiter = delimiterOf(text);
  const parsed = Papa.parse<string[]>(text, { delimiter, header: false, skipEmptyLines: false });
  const records = parsed.data;
  const header = records[0] ?? [];
  if (header.every((cell) => cell.trim() === ''))
    return { ok: false, message: t('toolkit.importNoHeader', { how: how() }) };

  const columns = new Map<Column, number>();
  const ignoredColumns: string[] = [];
  for (const [index, cell] of header.entries()) {
    const column = columnOf(cell);
    if (!column) ignoredColumns.push(cell.trim());
    else if (columns.has(column)) {
      return { ok: false, message: t('toolkit.importColumnTwice', { column: columnName(column), how: how() }) };
    } else columns.set(column, index);
  }
  const missing = (['name', 'category'] as const).filter((column) => !columns.has(column));
  if (missing.length > 0) {
    const found = header.map((cell) => `“${cell.trim()}”`).join(', ');
    return {
      ok: false,
      message: t('toolkit.importColumnMissing', {
        missing: formatList(missing.map(columnName), 'disjunction'),
        found,
        how: how(),
      }),
    };
  }

  // A line break in a quoted cell belongs to that cell; papaparse's row index counts records.
  const quoteProblems = new Map<number, string>();
  for (const error of parsed.errors) {
    if (error.type === 'Quotes' && error.row !== undefined) {
      quoteProblems.set(error.row, t('toolkit.importQuoteNotClosed'));
    }
  }
  const body = records.slice(1);
  const last = body[body.length - 1];
  if (last && last.length === 1 && last[0] === '') body.pop(); // the file's final line break
  const filled = body.filter((cells) => cells.some((cell) => cell.trim() !== ''));
  if (filled.length > IMPORT_MAX_ROWS) {
    return {
      ok: false,
      message: t('toolkit.importTooManyRows', { rows: filled.length, max: IMPORT_MAX_ROWS }),
    };
  }
  if (filled.length === 0) return { ok: false, message: t('toolkit.importNoRows') };

  const rows: ImportRow[] = [];
  body.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    const checked = checkRow(cells, columns, header.length, index + 2, context);
    const quote = quoteProblems.get(index + 1);
    if (quote) {
      checked.problems.push(quote);
      checked.animal = null;
    }
    rows.push(checked);
  });
  return { ok: true, delimiter, rows, ignoredColumns, emptyRows: body.length - filled.length };
}
