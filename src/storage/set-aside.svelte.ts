/**
 * The outbox rows set aside because they could not be read (they fail the schema; see
 * Outbox.setAside): shown to staff with why and when, and their raw data to copy, so nothing
 * entered is lost even when the app cannot send it.
 */
import { liveQuery, type Subscription } from 'dexie';
import { t } from '../language';
import type { ProfileDb, SetAsideRow } from './db';

export class SetAsideStore {
  rows = $state.raw<SetAsideRow[]>([]);
  /** What the last Copy did, by row id. */
  #copies = $state<Record<string, 'copied' | 'failed'>>({});
  #subscription: Subscription | null = null;

  constructor(
    private readonly db: ProfileDb,
    private readonly clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard,
  ) {}

  start(): void {
    const db = this.db;
    this.#subscription ??= liveQuery(() => db.setAside.orderBy('at').toArray()).subscribe({
      next: (rows) => (this.rows = rows),
      error: () => (this.rows = []),
    });
  }

  /** What the last Copy did, by row id, as staff read it. */
  get copied(): Record<string, string> {
    return Object.fromEntries(
      Object.entries(this.#copies).map(([id, outcome]) => [
        id,
        outcome === 'copied' ? t('storage.copied') : t('storage.copyFailed'),
      ]),
    );
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
  }

  /** Copies a row's raw data as JSON; says so, or to select the text by hand. */
  async copy(row: SetAsideRow): Promise<void> {
    try {
      if (!this.clipboard) throw new Error('no clipboard');
      await this.clipboard.writeText(rawJson(row));
      this.#copies = { ...this.#copies, [row.id]: 'copied' };
    } catch {
      this.#copies = { ...this.#copies, [row.id]: 'failed' };
    }
  }
}

export function rawJson(row: SetAsideRow): string {
  return JSON.stringify(row.raw, null, 2);
}

/** What staff recognise a set-aside row by: the animal's name and category when still readable. */
export function describeRecord(row: SetAsideRow): string {
  const animal: unknown =
    typeof row.raw === 'object' && row.raw !== null ? (row.raw as { animal?: unknown }).animal : null;
  const { name, categoryId } = (typeof animal === 'object' && animal !== null ? animal : {}) as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') return t('storage.unreadableRecord');
  const shown = name.trim().slice(0, 100);
  return typeof categoryId === 'string' || typeof categoryId === 'number'
    ? t('storage.recordNameCategory', { name: shown, category: categoryId })
    : shown;
}
