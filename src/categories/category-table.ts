/**
 * The category names of one profile (Dexie table `categories`, schema version 5): set, rename,
 * remove, and replace the whole table from a shared file. Every write checks the table as it
 * would be afterwards (one name per id, no name used by two ids), inside the transaction, so two
 * windows editing at once cannot leave it inconsistent.
 */
import { Category, type Category as CategoryType, sortCategories, tableProblems } from '../shared/categories';
import { type Clock, systemClock } from '../shared/clock';
import { canonicalInt64 } from '../shared/int64';
import type { CategoryRow, ProfileDb } from '../storage';

/** A write the table refused; `message` says why in staff's words. */
export class CategoryError extends Error {
  override name = 'CategoryError';
}

export class CategoryTable {
  constructor(
    private readonly db: ProfileDb,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  /** Every valid name, by id; a row that fails the schema (edited by hand) is left out. */
  async all(): Promise<CategoryType[]> {
    return validRows(await this.db.categories.toArray());
  }

  /** Gives category `idText` the name `label` (a new one, or a rename). */
  async set(idText: string, label: string): Promise<CategoryType> {
    const parsed = Category.safeParse({ id: canonicalInt64(idText), label });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CategoryError(
        issue?.path[0] === 'id'
          ? 'The category ID must be a whole number, such as 3.'
          : `The name cannot be used: ${issue?.message ?? 'it is not valid'}.`,
      );
    }
    const category = parsed.data;
    const db = this.db;
    await db.transaction('rw', db.categories, async () => {
      const others = (await this.all()).filter((other) => other.id !== category.id);
      const problems = tableProblems([...others, category]);
      if (problems.length > 0) throw new CategoryError(`Not saved: ${problems[0]}.`);
      await db.categories.put({ ...category, updatedAt: this.clock.now() });
    });
    return category;
  }

  async remove(id: string): Promise<void> {
    await this.db.categories.delete(id);
  }

  /** Replaces the whole table (a shared file staff confirmed), in one transaction. */
  async replaceAll(categories: readonly CategoryType[]): Promise<void> {
    const problems = tableProblems(categories);
    if (problems.length > 0) throw new CategoryError(`Not used: ${problems[0]}.`);
    const now = this.clock.now();
    const db = this.db;
    await db.transaction('rw', db.categories, async () => {
      await db.categories.clear();
      await db.categories.bulkPut(categories.map((category) => ({ ...category, updatedAt: now })));
    });
  }
}

/** The rows that are valid names, sorted by id (usable on a liveQuery's result too). */
export function validRows(rows: readonly CategoryRow[]): CategoryType[] {
  const valid: CategoryType[] = [];
  for (const row of rows) {
    const parsed = Category.safeParse({ id: row.id, label: row.label });
    if (parsed.success) valid.push(parsed.data);
  }
  return sortCategories(valid);
}
