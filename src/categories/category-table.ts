/**
 * The category names of one profile (Dexie table `categories`, schema version 5): set, rename,
 * remove, and replace the whole table from a shared file. Every write checks the table as it
 * would be afterwards (one name per id, no name used by two ids), inside the transaction, so two
 * windows editing at once cannot leave it inconsistent.
 */
import { t } from '../language';
import { Category, type Category as CategoryType, sortCategories, tableProblems } from '../shared/records/categories';
import { type Clock, systemClock } from '../shared/basics/clock';
import { canonicalInt64 } from '../shared/records/int64';
import type { CategoryRow, ProfileDb } from '../storage';

/** A write the table refused; `message` says why in staff's words (the language shown when it was refused). */
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
          ? t('categories.idNotWhole')
          : issue
            ? t('categories.nameUnusable', { reason: issue.message })
            : t('categories.nameInvalid'),
      );
    }
    const category = parsed.data;
    const db = this.db;
    await db.transaction('rw', db.categories, async () => {
      const others = (await this.all()).filter((other) => other.id !== category.id);
      const [problem] = tableProblems([...others, category]);
      if (problem !== undefined) throw new CategoryError(t('categories.notSaved', { problem }));
      await db.categories.put({ ...category, updatedAt: this.clock.now() });
    });
    return category;
  }

  async remove(id: string): Promise<void> {
    await this.db.categories.delete(id);
  }

  /** Replaces the whole table (a shared file staff confirmed), in one transaction. */
  async replaceAll(categories: readonly CategoryType[]): Promise<void> {
    const [problem] = tableProblems(categories);
    if (problem !== undefined) throw new CategoryError(t('categories.notUsed', { problem }));
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
