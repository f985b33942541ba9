/**
 * "Saved on this device": every cached animal of the profile, live from IndexedDB
 * (Dexie liveQuery), searchable and sortable. Works with no network at all.
 */
import { liveQuery, type Subscription } from 'dexie';
import type { CachedAnimal, ProfileDb } from '../data/db';
import { searchAndSort, type SortKey } from './animal-sorting';

export class SavedAnimalsStore {
  rows = $state.raw<CachedAnimal[]>([]);
  loaded = $state(false);
  error = $state<string | null>(null);
  search = $state('');
  sort = $state<SortKey>('name');
  readonly visible: CachedAnimal[] = $derived(searchAndSort(this.rows, this.search, this.sort));
  /** The newest confirmation among the saved animals. */
  readonly newestConfirmedAt: number | null = $derived(
    this.rows.reduce<number | null>(
      (max, row) => (max === null || row.confirmedAt > max ? row.confirmedAt : max),
      null,
    ),
  );
  #subscription: Subscription | null = null;

  constructor(private readonly db: ProfileDb) {}

  start(): void {
    this.#subscription ??= liveQuery(() => this.db.animals.toArray()).subscribe({
      next: (rows) => {
        this.rows = rows;
        this.loaded = true;
        this.error = null;
      },
      error: (error: unknown) => {
        this.error = error instanceof Error ? error.message : String(error);
      },
    });
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
  }
}
