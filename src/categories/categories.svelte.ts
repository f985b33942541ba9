/**
 * The category names of one profile as the UI sees them: live from IndexedDB (every window sees
 * an edit at once), the lookup the list, detail, add form and import use, editing, and the
 * shared file: export it, choose one, see what it would change, then use it or not.
 */
import { liveQuery, type Subscription } from 'dexie';
import { t } from '../language';
import {
  type Category,
  CATEGORY_FILE_MAX_BYTES,
  categoryFileText,
  CategoryLabels,
  parseCategoryFile,
  tableChanges,
  type TableChanges,
} from '../shared/records/categories';
import { errorMessage } from '../shared/basics/errors';
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
  // The sentences are kept as how to say them, so they follow the language shown.
  #fileProblem = $state<(() => string) | null>(null);
  #notice = $state<(() => string) | null>(null);
  readonly #table: CategoryTable;
  #subscription: Subscription | null = null;

  constructor(private readonly db: ProfileDb) {
    this.#table = new CategoryTable(db);
  }

  /** Why the chosen file cannot be used (nothing was changed). */
  get fileProblem(): string | null {
    return this.#fileProblem?.() ?? null;
  }

  /** What the last action did ("Category 3 is now called “Birds”."). */
  get notice(): string | null {
    return this.#notice?.() ?? null;
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
      this.#notice = () => t('categories.savedNotice', { id: saved.id, label: saved.label });
      return null;
    } catch (error) {
      return message(error);
    }
  }

  async remove(category: Category): Promise<void> {
    await this.#table.remove(category.id);
    this.#notice = () => t('categories.removedNotice', { id: category.id, label: category.label });
  }

  /** The shared file's text (the current table). */
  fileText(): string {
    return categoryFileText(this.categories);
  }

  /** Reads a chosen file; a bad one gets a message and changes nothing. */
  async choose(file: File): Promise<void> {
    this.pending = null;
    this.#notice = null;
    this.#fileProblem = null;
    const fileName = file.name;
    if (file.size > CATEGORY_FILE_MAX_BYTES) {
      this.#fileProblem = () => t('categories.fileTooLarge', { fileName });
      return;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      this.#fileProblem = () => t('categories.fileNotText', { fileName });
      return;
    }
    const parsed = parseCategoryFile(text);
    if (!parsed.ok) {
      const problem = parsed.message;
      this.#fileProblem = () => t('categories.fileProblem', { problem });
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
      const problem = message(error);
      this.#fileProblem = () => t('categories.fileProblem', { problem });
      return;
    }
    this.pending = null;
    const { added, renamed, removed } = pending.changes;
    this.#notice = () =>
      t('categories.inUse', {
        fileName: pending.fileName,
        added: added.length,
        renamed: renamed.length,
        removed: removed.length,
      });
  }

  cancelPending(): void {
    this.pending = null;
  }
}
