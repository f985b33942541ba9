import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Animal } from '../../../src/shared/records/animal';
import { CategoryLabels } from '../../../src/shared/records/categories';
import { DuplicateIndex } from '../../../src/storage/duplicates';
import { animalsToCsv, exportFileName } from '../../../src/toolkit/csv-export';
import { decodeCsvBytes } from '../../../src/toolkit/csv-file';
import { previewCsv } from '../../../src/toolkit/csv-import';

const labels = new CategoryLabels([
  { id: '1', label: 'Dogs' },
  { id: '9223372036854775807', label: 'Largest' },
]);

function rowsOf(csv: string): string[][] {
  expect(csv.startsWith('\uFEFF')).toBe(true);
  return Papa.parse<string[]>(csv.slice(1), { header: false, skipEmptyLines: true }).data;
}

describe('CSV export', () => {
  it('writes the columns with ids exact as text and category names', () => {
    const csv = animalsToCsv(
      [
        { id: '9007199254740993', name: 'Rex', categoryId: '1', status: 'available' },
        { id: '9223372036854775807', name: 'Zoë, "the brave"', categoryId: '9223372036854775807' },
      ],
      labels,
    );
    expect(csv).toContain('\r\n');
    expect(rowsOf(csv)).toEqual([
      ['name', 'category', 'category name', 'status', 'id'],
      ['Rex', '1', 'Dogs', 'available', '9007199254740993'],
      ['Zoë, "the brave"', '9223372036854775807', 'Largest', '', '9223372036854775807'],
    ]);
  });

  it('neutralises cells that start like a formula (=, +, -, @, tab, CR), multi-line ones too', () => {
    const names = [
      '=1+1',
      '+SUM(A1)',
      '-2',
      '@cmd',
      '\tTab',
      '\rCR',
      '=HYPERLINK("x")\nsecond line',
      '  =HYPERLINK("http://evil.example")',
      ' \u00a0@SUM(1)',
      'Plain',
    ];
    const csv = animalsToCsv(
      names.map((name, index) => ({ id: String(index + 1), name, categoryId: '1' })),
      labels,
    );
    const cells = rowsOf(csv)
      .slice(1)
      .map((row) => row[0]);
    expect(cells).toEqual([...names.slice(0, 9).map((name) => `'${name}`), 'Plain']);
  });

  it('round-trips 1,000 animals with ids above 2^53 through import exactly (names, categories, statuses)', () => {
    const statuses = ['available', 'pending', 'sold', undefined] as const;
    const animals: Animal[] = Array.from({ length: 1000 }, (_, i) => {
      const status = statuses[i % 4];
      const base: Animal = {
        id: (2n ** 53n + BigInt(i) * 7919n).toString(),
        name: i % 50 === 0 ? `=Formula ${i}` : `Animal ${i}; “${i % 3 === 0 ? 'Zoë' : 'Ärger'}”, line`,
        categoryId: i % 2 === 0 ? '1' : (2n ** 60n + BigInt(i)).toString(),
      };
      return status ? { ...base, status } : base;
    });
    const csv = animalsToCsv(animals, labels);
    const decoded = decodeCsvBytes(new TextEncoder().encode(csv));
    if (!decoded.ok) throw new Error(decoded.message);
    const preview = previewCsv(decoded.text, { labels, duplicates: DuplicateIndex.of([], []) });
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.rows.every((row) => row.problems.length === 0)).toBe(true);
    expect(preview.rows.map((row) => row.animal)).toEqual(animals.map(({ id: _id, ...animal }) => animal));
    const ids = rowsOf(csv)
      .slice(1)
      .map((row) => row[4]);
    expect(ids).toEqual(animals.map((animal) => animal.id));
  });

  it('names the file after what, the profile and the day', () => {
    expect(exportFileName('Animals', 'Local demo', new Date(2026, 10, 3))).toBe('animals-local-demo-2026-11-03.csv');
    expect(exportFileName('Saved on this device', 'Café ☕ / Nord', new Date(2026, 0, 9))).toBe(
      'saved-on-this-device-cafe-nord-2026-01-09.csv',
    );
  });
});
