import { describe, expect, it } from 'vitest';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { DuplicateIndex } from '../../../src/storage/duplicates';
import { decodeCsvBytes, IMPORT_MAX_BYTES, sizeProblem } from '../../../src/toolkit/csv-file';
import { type ImportPreview, previewCsv } from '../../../src/toolkit/csv-import';
import { animal } from '../support/test-helpers';

const labels = new CategoryLabels([
  { id: '1', label: 'Dogs' },
  { id: '2', label: 'Cats' },
]);

function preview(text: string, index = DuplicateIndex.of([], [])): ImportPreview {
  const result = previewCsv(text, { labels, duplicates: index });
  if (!result.ok) throw new Error(`expected a preview, got: ${result.message}`);
  return result;
}

function refusal(text: string): string {
  const result = previewCsv(text, { labels, duplicates: DuplicateIndex.of([], []) });
  if (result.ok) throw new Error('expected the file to be refused');
  return result.message;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('CSV import preview', () => {
  it('reads comma and semicolon files with a header row, in file order, with spreadsheet row numbers', () => {
    for (const [delimiter, text] of [
      [',', 'Name,Category,Status\r\nRex,1,available\r\nMimi,cats,\r\n"Biscuit, Jr.",2,PENDING\r\n'],
      [';', 'name;category id;status\nRex;1;available\nMimi;Cats;\nBiscuit, Jr.;2;pending\n'],
    ] as const) {
      const result = preview(text);
      expect(result.delimiter).toBe(delimiter);
      expect(result.rows.map((row) => [row.row, row.animal, row.problems])).toEqual([
        [2, { name: 'Rex', categoryId: '1', status: 'available' }, []],
        [3, { name: 'Mimi', categoryId: '2' }, []],
        [4, { name: 'Biscuit, Jr.', categoryId: '2', status: 'pending' }, []],
      ]);
    }
  });

  it('lists every bad row with its row number and a clear message; good rows stay valid', () => {
    const text = [
      'name,category,status',
      'Rex,1,available',
      ',1,',
      'Tom,Dogz,',
      'Kit,1.5,',
      'Max,99999999999999999999,',
      'Lu,2,adopted',
      '=HYPERLINK("http://x"),1,',
      '  @SUM(A1),1,',
      "'=Equals,1,",
      'Bo,1,sold,extra',
      'A'.repeat(201) + ',1,',
      '',
      'Zed,-3,',
    ].join('\n');
    const result = preview(text);
    const byRow = new Map(result.rows.map((row) => [row.row, row]));
    expect(byRow.get(2)?.animal).toEqual({ name: 'Rex', categoryId: '1', status: 'available' });
    expect(byRow.get(3)?.problems).toEqual(['Name is missing.']);
    expect(byRow.get(4)?.problems[0]).toContain('Category “Dogz” is not a known category name');
    expect(byRow.get(5)?.problems[0]).toContain('Category “1.5” is not a known category name');
    expect(byRow.get(6)?.problems).toEqual([
      'Category ID 99999999999999999999 is too large for a 64-bit whole number.',
    ]);
    expect(byRow.get(7)?.problems[0]).toContain('Status “adopted” is not available, pending or sold');
    expect(byRow.get(8)?.problems[0]).toContain('Name starts with “=”, so a spreadsheet would run it as a formula');
    expect(byRow.get(9)?.problems[0]).toContain('Name starts with “@”');
    expect(byRow.get(10)?.animal).toEqual({ name: '=Equals', categoryId: '1' });
    expect(byRow.get(11)?.problems[0]).toContain('The row has 4 cells but the header has 3');
    expect(byRow.get(12)?.problems).toEqual(['Name: name must be at most 200 characters.']);
    expect(byRow.has(13)).toBe(false);
    expect(result.emptyRows).toBe(1);
    expect(byRow.get(14)?.animal).toEqual({ name: 'Zed', categoryId: '-3' });
    expect(result.rows.filter((row) => row.animal).map((row) => row.row)).toEqual([2, 10, 14]);
  });

  it('flags rows matching the cache, the outbox or an earlier row, and still lets them through', () => {
    const index = DuplicateIndex.of([animal('41', 'Kitten', '2')], []);
    const result = preview('name,category\nkitten,Cats\nRex,1\nREX,1\n', index);
    expect(result.rows.map((row) => [row.row, row.duplicates])).toEqual([
      [2, [{ kind: 'known', id: '41' }]],
      [3, []],
      [4, [{ kind: 'file', row: 3 }]],
    ]);
    expect(result.rows.every((row) => row.animal !== null)).toBe(true);
  });

  it('names the columns it does not use (an export has id and category name)', () => {
    const result = preview('name,category,category name,status,id\nRex,1,Dogs,available,9007199254740993\n');
    expect(result.ignoredColumns).toEqual(['category name', 'id']);
    expect(result.rows[0]?.animal).toEqual({ name: 'Rex', categoryId: '1', status: 'available' });
  });

  it('refuses a file without the columns, with a header twice, or without rows, saying why', () => {
    expect(refusal('Animal,Type\nRex,1\n')).toContain(
      'The file has no name or category column (its first row names “Animal”, “Type”)',
    );
    expect(refusal('name\nRex\n')).toContain('no category column');
    expect(refusal('name,category,Name\nRex,1,x\n')).toContain('names the name column twice');
    expect(refusal('\n\n')).toContain('no header row');
    expect(refusal('name,category\n\n')).toBe('The file has a header row but no animals below it.');
    const many = ['name,category', ...Array.from({ length: 5001 }, (_, i) => `A${i},1`)].join('\n');
    expect(refusal(many)).toContain('The file has 5,001 rows; an import takes at most 5,000');
  });

  it('marks a row whose quote is never closed', () => {
    const result = preview('name,category\nRex,1\n"Tom,1\nMia,2\n');
    expect(result.rows[0]?.animal).not.toBeNull();
    expect(result.rows.at(-1)?.problems.join(' ')).toContain('A quote in this row is not closed');
    expect(result.rows.at(-1)?.animal).toBeNull();
  });
});

describe('CSV file checks', () => {
  it('decodes UTF-8 (with or without a byte order mark) and refuses other encodings and binary files', () => {
    expect(decodeCsvBytes(utf8('\uFEFFname,category\nZoë,1\n'))).toEqual({ ok: true, text: 'name,category\nZoë,1\n' });
    const latin1 = Uint8Array.from([...utf8('name,category\nZo'), 0xeb, ...utf8(',1\n')]);
    expect(decodeCsvBytes(latin1)).toEqual({ ok: false, message: expect.stringContaining('not UTF-8 text') });
    expect(decodeCsvBytes(Uint8Array.from([0xff, 0xfe, 0x6e, 0]))).toEqual({
      ok: false,
      message: expect.stringContaining('UTF-16'),
    });
    expect(decodeCsvBytes(Uint8Array.from([0x50, 0x4b, 3, 4, 0, 0]))).toEqual({
      ok: false,
      message: expect.stringContaining('not a text file'),
    });
  });

  it('refuses an empty file and one over the size limit before reading it', () => {
    expect(sizeProblem(0)).toBe('The file is empty.');
    expect(sizeProblem(IMPORT_MAX_BYTES)).toBeNull();
    expect(sizeProblem(50 * 1024 * 1024)).toBe(
      'The file is 50.0 MB; an import takes at most 2.0 MB (about 5,000 animals). Split it into smaller files.',
    );
  });
});
