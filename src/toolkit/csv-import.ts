/**
 * The preview of a spreadsheet import: every row of a CSV file (header row; comma or semicolon;
 * columns name, category — an ID or a known category name — and status, optional) with its
 * validation by the shared contract (`NewAnimal`), its row number as the spreadsheet shows it (the
 * header is row 1) and the duplicates it matches. Pure: nothing is written here; staff confirm
 * the preview and the valid rows then go into the outbox (Outbox.enqueueMany).
 */
import Papa from 'papaparse';
import { ANIMAL_STATUSES, type AnimalStatus, NewAnimal } from '../shared/animal';
import type { CategoryLabels } from '../shared/categories';
import { canonicalInt64, isInt64String } from '../shared/int64';
import { matchKey } from '../shared/text-match';
import type { DuplicateIndex, DuplicateMatch } from '../storage';
import { IMPORT_MAX_ROWS, looksLikeFormula, unneutralise } from './csv-file';

export type Column = 'name' | 'category' | 'status';

/** Header cells (as `matchKey` sees them, spaces and underscores removed) and the column each names. */
const HEADER_NAMES: Record<string, Column> = {
  name: 'name',
  category: 'category',
  categoryid: 'category',
  status: 'status',
};

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

const HOW =
  'The first row must name the columns: name, category (an ID or a known category name) and, if you like, status.';

function headerKey(cell: string): string {
  return matchKey(cell).replace(/[\s_]/g, '');
}

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
  if (text === '') return { problem: 'Category is missing.' };
  if (/^-?\d+$/.test(text)) {
    const id = canonicalInt64(text);
    return isInt64String(id) ? { id } : { problem: `Category ID ${text} is too large for a 64-bit whole number.` };
  }
  const id = labels.idOf(text);
  if (id !== null) return { id };
  if (looksLikeFormula(text)) return { problem: `Category “${text}” starts like a spreadsheet formula.` };
  return {
    problem: `Category “${text}” is not a known category name: use its ID, or add the name in Keys and profiles.`,
  };
}

function statusOf(cell: string): { status?: AnimalStatus } | { problem: string } {
  const text = unneutralise(cell).trim().toLowerCase();
  if (text === '') return {};
  if ((ANIMAL_STATUSES as readonly string[]).includes(text)) return { status: text as AnimalStatus };
  return {
    problem: `Status “${cell.trim()}” is not available, pending or sold (leave it empty to let the service decide).`,
  };
}

function nameProblem(cell: string): string | null {
  if (!looksLikeFormula(cell)) return null;
  const first = cell.trimStart()[0] ?? '';
  const shown = /[\t\r]/.test(first) ? 'a tab' : `“${first}”`;
  return `Name starts with ${shown}, so a spreadsheet would run it as a formula. If that is really the name, start the cell with an apostrophe ('${cell.trimStart()}).`;
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
    problems.push(
      `The row has ${cells.length} cells but the header has ${width}: is there a comma or semicolon in a name without quotes?`,
    );
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
      if (issue.path[0] === 'name') problems.push(name.trim() === '' ? 'Name is missing.' : `Name: ${issue.message}.`);
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
  if (header.every((cell) => cell.trim() === '')) return { ok: false, message: `The file has no header row. ${HOW}` };

  const columns = new Map<Column, number>();
  const ignoredColumns: string[] = [];
  for (const [index, cell] of header.entries()) {
    const column = HEADER_NAMES[headerKey(cell)];
    if (!column) ignoredColumns.push(cell.trim());
    else if (columns.has(column)) return { ok: false, message: `The header names the ${column} column twice. ${HOW}` };
    else columns.set(column, index);
  }
  const missing = (['name', 'category'] as const).filter((column) => !columns.has(column));
  if (missing.length > 0) {
    const found = header.map((cell) => `“${cell.trim()}”`).join(', ');
    return {
      ok: false,
      message: `The file has no ${missing.join(' or ')} column (its first row names ${found}). ${HOW}`,
    };
  }

  // A line break in a quoted cell belongs to that cell; papaparse's row index counts records.
  const quoteProblems = new Map<number, string>();
  for (const error of parsed.errors) {
    if (error.type === 'Quotes' && error.row !== undefined) {
      quoteProblems.set(error.row, 'A quote in this row is not closed, so the rest of the file may be read into it.');
    }
  }
  const body = records.slice(1);
  const last = body[body.length - 1];
  if (last && last.length === 1 && last[0] === '') body.pop(); // the file's final line break
  const filled = body.filter((cells) => cells.some((cell) => cell.trim() !== ''));
  if (filled.length > IMPORT_MAX_ROWS) {
    return {
      ok: false,
      message: `The file has ${filled.length.toLocaleString('en')} rows; an import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en')}. Split it into smaller files.`,
    };
  }
  if (filled.length === 0) return { ok: false, message: 'The file has a header row but no animals below it.' };

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
