/**
 * What a spreadsheet file must be before any row is read (size, UTF-8 text), and the one rule
 * about formula-looking cells that import and export share.
 *
 * A cell starting with `=`, `+`, `-` or `@` (or a tab or carriage return) is run as a formula
 * by Excel, LibreOffice and Google Sheets (CSV injection, OWASP). Export neutralises such a cell
 * by putting an apostrophe before it, which spreadsheets show as text; import reads that
 * apostrophe back off, and refuses a cell that starts like a formula without it.
 */
import { formatNumber, t } from '../language';

/** A spreadsheet import takes at most this many bytes (about 5,000 animals) … */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
/** … and at most this many rows below the header. */
export const IMPORT_MAX_ROWS = 5000;

/**
 * Starts like a formula: a tab or a carriage return, or `=`, `+`, `-` or `@` after any spaces
 * (spreadsheets skip leading spaces before a formula, so "  =HYPERLINK(…)" runs too). papaparse's
 * own `escapeFormulae: true` uses `/^[=+\-@\t\r].*$/`, which misses both that and a cell with a
 * line break (`.` stops at `\n`): this pattern looks at the start only.
 */
export const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/;

/** An apostrophe export put before a formula-looking cell. */
const NEUTRALISED = /^'(?:[\t\r]|\s*[=+\-@])/;

/** The cell as staff meant it: an apostrophe export added is taken off again. */
export function unneutralise(cell: string): string {
  return NEUTRALISED.test(cell) ? cell.slice(1) : cell;
}

/** True when the cell, as read, would run as a formula in a spreadsheet (leading spaces included). */
export function looksLikeFormula(cell: string): boolean {
  return FORMULA_START.test(cell);
}

export type DecodedFile = { ok: true; text: string } | { ok: false; message: string };

/** Megabytes with one decimal, as the language shown writes them ("2.0" / "2,0"). */
function megabytes(bytes: number): string {
  return formatNumber(bytes / 1024 / 1024, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A message when the file is too large to import, checked before it is read; null when it is fine. */
export function sizeProblem(bytes: number): string | null {
  if (bytes === 0) return t('toolkit.fileEmpty');
  if (bytes <= IMPORT_MAX_BYTES) return null;
  return t('toolkit.fileTooLarge', { size: megabytes(bytes), max: megabytes(IMPORT_MAX_BYTES), rows: IMPORT_MAX_ROWS });
}

/** The file's text, or why it is not UTF-8 CSV text. Nothing is read beyond the size limit. */
export function decodeCsvBytes(bytes: Uint8Array): DecodedFile {
  const tooLarge = sizeProblem(bytes.length);
  if (tooLarge) return { ok: false, message: tooLarge };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, message: t('toolkit.fileUtf16') };
  }
  if (bytes.includes(0)) {
    return { ok: false, message: t('toolkit.fileBinary') };
  }
  let text: string;
  try {
    // fatal: a byte that is not UTF-8 is an error, never a silent U+FFFD; the BOM is dropped.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: t('toolkit.fileNotUtf8') };
  }
  return { ok: true, text };
}
