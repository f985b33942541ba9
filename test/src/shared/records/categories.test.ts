import { describe, expect, it } from 'vitest';
import {
  CategoryLabels,
  categoryFileText,
  parseCategoryFile,
  tableChanges,
  tableProblems,
} from '../../../../src/shared/records/categories';
import { canonicalInt64 } from '../../../../src/shared/records/int64';
import { matchKey } from '../../../../src/shared/records/text-match';

const file = (categories: unknown) => JSON.stringify({ kind: 'adoption-desk.categories', version: 1, categories });

describe('matchKey', () => {
  it('ignores case, accents, outer spaces and repeated inner spaces', () => {
    expect(matchKey('  Chloé  ')).toBe(matchKey('CHLOE'));
    expect(matchKey('Mr   Whiskers')).toBe('mr whiskers');
    expect(matchKey('Zoë')).not.toBe(matchKey('Zoey'));
  });
});

describe('canonicalInt64', () => {
  it('turns typed whole numbers into canonical ids and leaves anything else for the schema', () => {
    expect(canonicalInt64(' 007 ')).toBe('7');
    expect(canonicalInt64('-0')).toBe('0');
    expect(canonicalInt64('9223372036854775807')).toBe('9223372036854775807');
    expect(canonicalInt64('1.5')).toBe('1.5');
    expect(canonicalInt64('Dogs')).toBe('Dogs');
  });
});

describe('category file', () => {
  it('round-trips a table exactly, ids above 2^53 included, sorted by id', () => {
    const table = [
      { id: '9223372036854775807', label: 'Big' },
      { id: '2', label: 'Cats' },
      { id: '1', label: 'Dogs' },
    ];
    const parsed = parseCategoryFile(categoryFileText(table));
    expect(parsed).toEqual({
      ok: true,
      categories: [
        { id: '1', label: 'Dogs' },
        { id: '2', label: 'Cats' },
        { id: '9223372036854775807', label: 'Big' },
      ],
    });
  });

  it('accepts ids written as JSON integers a double holds exactly, and trims names', () => {
    const text = file([{ id: 9007199254740991, label: ' Birds ' }]);
    expect(parseCategoryFile(text)).toEqual({ ok: true, categories: [{ id: '9007199254740991', label: 'Birds' }] });
  });

  it('refuses a JSON integer id above 2^53 (JSON.parse would round it) and asks for text', () => {
    const text =
      '{"kind":"adoption-desk.categories","version":1,"categories":[{"id":9007199254740993,"label":"Birds"}]}';
    expect(parseCategoryFile(text)).toEqual({
      ok: false,
      message:
        'The file cannot be used: entry 1: its ID is not a whole number a file can hold exactly; write it as text, in quotes.',
    });
  });

  it.each([
    ['not JSON', 'hello', 'it is not JSON text'],
    ['another JSON file', '{"name":"x"}', 'not a category file of Adoption Desk'],
    [
      'a newer version',
      '{"kind":"adoption-desk.categories","version":2,"categories":[]}',
      'version this app does not know',
    ],
    ['a fractional id', file([{ id: 1.5, label: 'Dogs' }]), 'entry 1: its ID must be a whole number'],
    ['an empty name', file([{ id: '1', label: '  ' }]), 'entry 1: the name is empty'],
    ['a name of digits', file([{ id: '1', label: '12' }]), 'only digits'],
    [
      'a name that turns text around (U+202E)',
      file([{ id: '1', label: 'Dogs \u202etxt.exe' }]),
      'entry 1: the name contains a character that changes the direction of text',
    ],
    ['a name with an isolate (U+2066)', file([{ id: '1', label: '\u2066Cats\u2069' }]), 'direction of text'],
    [
      'an id twice',
      file([
        { id: '1', label: 'Dogs' },
        { id: '1', label: 'Cats' },
      ]),
      'entries 1 and 2 both name category 1',
    ],
    [
      'a name twice',
      file([
        { id: '1', label: 'Dogs' },
        { id: '2', label: 'DOGS' },
      ]),
      'categories 1 and 2 are both called',
    ],
  ])('refuses %s with a clear message', (_what, text, message) => {
    const parsed = parseCategoryFile(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it('refuses a file too large to be a category file before parsing it', () => {
    const parsed = parseCategoryFile(' '.repeat(300 * 1024));
    expect(parsed).toEqual({ ok: false, message: expect.stringContaining('too large') });
  });
});

describe('CategoryLabels and table changes', () => {
  const labels = new CategoryLabels([
    { id: '1', label: 'Dogs' },
    { id: '2', label: 'Chats Noirs' },
  ]);

  it('looks up names by id and ids by name, case and accents aside', () => {
    expect(labels.labelOf('1')).toBe('Dogs');
    expect(labels.labelOf('3')).toBeNull();
    expect(labels.idOf(' dogs ')).toBe('1');
    expect(labels.idOf('chats  noirs')).toBe('2');
    expect(labels.describe('3')).toBe('category 3');
  });

  it('finds problems of a table and what replacing it changes', () => {
    expect(tableProblems([{ id: '1', label: 'Dogs' }])).toEqual([]);
    const changes = tableChanges(labels.categories, [
      { id: '1', label: 'Dogs' },
      { id: '2', label: 'Cats' },
      { id: '5', label: 'Birds' },
    ]);
    expect(changes).toEqual({
      added: [{ id: '5', label: 'Birds' }],
      renamed: [{ id: '2', from: 'Chats Noirs', to: 'Cats' }],
      removed: [],
      unchanged: 1,
    });
    expect(tableChanges(labels.categories, []).removed.map((c) => c.id)).toEqual(['1', '2']);
  });
});
