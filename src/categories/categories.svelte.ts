/**
 * The category names of one profile as the UI sees them: live from IndexedDB (every window sees
 * an edit at once), the lookup the list, detail, add form and import use, editing, and the
 * shared file: export it, choose one, see what it would change, then use it or not.
 */
import { liveQuery, type Subscription } from 'dexie';
import {
  type Category,
  CATEGORY_FILE_MAX_BYTES,
  categoryFileText,
  CategoryLabels,
  parseCategoryFile,
  tableChanges,
  type TableChanges,
} from '../shared/categories';
import { errorMessage } from '../shared/errors';
import type { ProfileDb } from '../storage';
import { CategoryTable, validRows } from './category-table';

export interface PendingFile {
  fileName: string;
  categories: Category[];
  changes: TableChanges;
}

function message(error: unknown): string {
  return errorMessage(error);
}

export class CategoriesStore {
  labels = $state.raw<CategoryLabels>(CategoryLabels.empty);
  loaded = $state(false);
  error = $state<string | null>(null);
  /** A chosen file, read and checked, waiting for staff to use it or not. */
  pending = $state.raw<PendingFile | null>(null);
  /** Why the chosen file cannot be used (nothing was changed). */
  fileProblem = $state<string | null>(null);
  /** What the last action did ("Category names replaced: 2 added, 1 renamed."). */
  notice = $state<string | null>(null);
  readonly #table: CategoryTable;
  #subscription: Subscription | null = null;

  constructor(private readonly db: ProfileDb) {
    this.#table = new CategoryTable(db);
  }

  get categories(): readonly Category[] {
    return this.labels.categories;
  }

  start(): void {
    this.#subscription ??= liveQuery(() => this.db.categories.toArray()).subscribe({
      next: (rows) => {
        this.labels = new CategoryLabels(validRows(rows));
        this.loaded = true;
        this.error = null;
      },
      error: (error: unknown) => {
        this.error = message(error);
      },
    });
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
  }

  /** Names (or renames) a category; returns a problem message, or null when saved. */
  async save(idText: string, label: string): Promise<string | null> {
    try {
      const saved = await this.#table.set(idText, label);
      this.notice = `Category ${saved.id} is now called “${saved.label}”.`;
      return null;
    } catch (error) {
      return message(error);
    }
  }

  async remove(category: Category): Promise<void> {
    await this.#table.remove(category.id);
    this.notice = `The name “${category.label}” of category ${category.id} was removed.`;
  }

  /** The shared file's text (the current table). */
  fileText(): string {
    return categoryFileText(this.categories);
  }

  /** Reads a chosen file; a bad one gets a message and changes nothing. */
  async choose(file: File): Promise<void> {
    this.pending = null;
    this.notice = null;
    this.fileProblem = null;
    if (file.size > CATEGORY_FILE_MAX_BYTES) {
      this.fileProblem = `${file.name} is too large to be a category file (at most 256 KB). Nothing was changed.`;
      return;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      this.fileProblem = `${file.name} could not be read as text. Nothing was changed.`;
      return;
    }
    const parsed = parseCategoryFile(text);
    if (!parsed.ok) {
      this.fileProblem = `${parsed.message} Nothing was changed.`;
      return;
    }
    this.pending = {
      fileName: file.name,
      categories: parsed.categories,
      changes: tableChanges(this.categories, parsed.categories),
    };
  }

  /** Staff confirmed the pending file: the table becomes the file's. */
  async usePending(): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    try {
      await this.#table.replaceAll(pending.categories);
    } catch (error) {
      this.fileProblem = `${message(error)} Nothing was changed.`;
      return;
    }
    this.pending = null;
    const { added, renamed, removed } = pending.changes;
    this.notice = `Category names from ${pending.fileName} are in use: ${added.length} added, ${renamed.length} renamed, ${removed.length} removed.`;
  }

  cancelPending(): void {
    this.pending = null;
  }
}
