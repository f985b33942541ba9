/**
 * Category names: the interface knows only `categoryId`, so each profile keeps its own table
 * of names (1 = Dogs, 2 = Cats). Shared here: the schema of one name, of the small JSON file
 * that carries a table from one laptop to another, and the lookup both ways.
 */
import { Int64 } from './animal';
import { describeIssues, type IssueLike } from '../basics/errors';
import { t } from '../i18n';
import { compareInt64 } from './int64';
import { matchKey } from './text-match';
import { z } from '../basics/zod';

export const CATEGORY_NAME_MAX = 40;
export const CATEGORY_FILE_KIND = 'adoption-desk.categories';
export const CATEGORY_FILE_MAX_BYTES = 256 * 1024;
export const CATEGORY_FILE_MAX_ENTRIES = 1000;

/**
 * The Unicode characters that change the direction of what follows them (embeddings, overrides,
 * isolates and the marks): "Dogs\u202Etxt.exe" shows as "Dogsexe.txt". A name is refused with one.
 */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * A category name as staff type it: trimmed, 1–40 characters, no control character or one that
 * turns text around, not only digits (that reads as an ID).
 */
export const CategoryName = z.string({ error: () => t('contract.categoryNameMissing') }).check(
  z.trim(),
  z.minLength(1, { error: () => t('contract.categoryNameEmpty') }),
  z.maxLength(CATEGORY_NAME_MAX, { error: () => t('contract.categoryNameTooLong', { max: CATEGORY_NAME_MAX }) }),
  z.refine((name: string) => !/\p{Cc}/u.test(name), { error: () => t('contract.categoryNameControl') }),
  z.refine((name: string) => !BIDI_CONTROLS.test(name), {
    error: () => t('contract.categoryNameBidi'),
  }),
  z.refine((name: string) => !/^-?\d+$/.test(name), {
    error: () => t('contract.categoryNameDigits'),
  }),
);

export const Category = z.object({ id: Int64, label: CategoryName });
export type Category = z.infer<typeof Category>;

/** Problems of a whole table: an id named twice, or two ids sharing a name (case and accents aside). */
export function tableProblems(categories: readonly Category[]): string[] {
  const problems: string[] = [];
  const ids = new Map<string, number>();
  const names = new Map<string, Category>();
  categories.forEach((category, index) => {
    const seen = ids.get(category.id);
    if (seen !== undefined)
      problems.push(t('contract.categoryIdTwice', { first: seen + 1, second: index + 1, id: category.id }));
    else ids.set(category.id, index);
    const key = matchKey(category.label);
    const other = names.get(key);
    if (other && other.id !== category.id) {
      problems.push(t('contract.categoryNameTwice', { first: other.id, second: category.id, name: category.label }));
    } else names.set(key, category);
  });
  return problems;
}

/** The file's shape: `{ kind, version: 1, categories: [{ id, label }] }`; ids as strings (or small JSON integers). */
export const CategoryFile = z.object({
  kind: z.literal(CATEGORY_FILE_KIND, { error: () => t('contract.categoryFileKind') }),
  version: z.literal(1, { error: () => t('contract.categoryFileVersion') }),
  categories: z.array(Category, { error: () => t('contract.categoryFileNoList') }).check(
    z.maxLength(CATEGORY_FILE_MAX_ENTRIES, {
      error: () => t('contract.categoryFileTooMany', { max: CATEGORY_FILE_MAX_ENTRIES }),
    }),
  ),
});

export type CategoryFileResult = { ok: true; categories: Category[] } | { ok: false; message: string };

function describeIssue(issue: IssueLike): string {
  const [first, index, field] = issue.path;
  if (first !== 'categories' || typeof index !== 'number') return issue.message;
  if (field === 'id') return t('contract.categoryEntryId', { number: index + 1 });
  return field === 'label'
    ? t('contract.categoryEntryIssue', { number: index + 1, issue: issue.message })
    : t('contract.categoryEntryNotPair', { number: index + 1 });
}

/**
 * Ids as JSON integers are taken while a double holds them exactly; a larger one has already
 * been rounded by `JSON.parse` and is refused (the file this app writes has ids as strings). Plain
 * `JSON.parse` rather than the exact codec: it keeps lossless-json out of the window's bundle.
 */
function idsAsText(raw: unknown): string | null {
  const entries = (raw as { categories?: unknown } | null)?.categories;
  if (!Array.isArray(entries)) return null;
  for (const [index, entry] of entries.entries()) {
    const id = (entry as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isInteger(id)) continue;
    if (!Number.isSafeInteger(id)) {
      return t('contract.categoryEntryUnsafeId', { number: index + 1 });
    }
    (entry as { id: unknown }).id = String(id);
  }
  return null;
}

/** Reads a category file; a bad file gets one clear message (and the caller changes nothing). */
export function parseCategoryFile(text: string): CategoryFileResult {
  if (text.length > CATEGORY_FILE_MAX_BYTES) {
    return { ok: false, message: t('contract.categoryFileTooLarge') };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, message: t('contract.categoryFileNotJson') };
  }
  const unsafe = idsAsText(raw);
  if (unsafe) return { ok: false, message: t('contract.categoryFileUnusable', { problems: unsafe }) };
  const parsed = CategoryFile.safeParse(raw);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues, { max: 3, describe: describeIssue });
    return { ok: false, message: t('contract.categoryFileUnusable', { problems: issues }) };
  }
  const problems = tableProblems(parsed.data.categories);
  if (problems.length > 0)
    return { ok: false, message: t('contract.categoryFileUnusable', { problems: problems.slice(0, 3).join('; ') }) };
  return { ok: true, categories: sortCategories(parsed.data.categories) };
}

/** The file text of a table (ids as strings, so every reader keeps them exact). */
export function categoryFileText(categories: readonly Category[]): string {
  const body = { kind: CATEGORY_FILE_KIND, version: 1, categories: sortCategories(categories) };
  return `${JSON.stringify(body, null, 2)}\n`;
}

export function sortCategories(categories: readonly Category[]): Category[] {
  return [...categories].sort((a, b) => compareInt64(a.id, b.id));
}

/** The lookup of one profile's table: name of an id, id of a name (case and accents aside). */
export class CategoryLabels {
  static readonly empty = new CategoryLabels([]);
  readonly #byId = new Map<string, string>();
  readonly #byName = new Map<string, string>();

  constructor(readonly categories: readonly Category[]) {
    for (const { id, label } of categories) {
      this.#byId.set(id, label);
      this.#byName.set(matchKey(label), id);
    }
  }

  get size(): number {
    return this.#byId.size;
  }

  labelOf(id: string): string | null {
    return this.#byId.get(id) ?? null;
  }

  idOf(name: string): string | null {
    return this.#byName.get(matchKey(name)) ?? null;
  }

  /** "Cats" when the id has a name, otherwise "category 7". */
  describe(id: string): string {
    return this.labelOf(id) ?? t('contract.categoryFallback', { id });
  }
}

/** What replacing one table by another changes, for staff to confirm. */
export interface TableChanges {
  added: Category[];
  renamed: { id: string; from: string; to: string }[];
  removed: Category[];
  unchanged: number;
}

export function tableChanges(current: readonly Category[], incoming: readonly Category[]): TableChanges {
  const now = new Map(current.map((category) => [category.id, category.label]));
  const next = new Map(incoming.map((category) => [category.id, category.label]));
  const changes: TableChanges = { added: [], renamed: [], removed: [], unchanged: 0 };
  for (const category of sortCategories(incoming)) {
    const label = now.get(category.id);
    if (label === undefined) changes.added.push(category);
    else if (label !== category.label) changes.renamed.push({ id: category.id, from: label, to: category.label });
    else changes.unchanged += 1;
  }
  for (const category of sortCategories(current)) if (!next.has(category.id)) changes.removed.push(category);
  return changes;
}
