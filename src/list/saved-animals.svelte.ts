/**
 * "Saved on this device": every cached animal of the profile, from IndexedDB, searchable,
 * sortable and filterable by status. Works with no network at all.
 *
 * Reading 10,000 animals in one go blocks the page for hundreds of milliseconds, so:
 * - a live query (Dexie liveQuery) reads only the first screen (the first names, by index)
 *   and the count; it runs again whenever the saved animals change;
 * - after that screen is painted, everything is read in chunks (one task each, so the page
 *   stays responsive) into a SavedIndex, sorted both ways and split by status once;
 * - search, sort and status then only pick or filter ready arrays.
 * Until the whole index is read the first screen is shown (`complete` is false).
 */
import { liveQuery, type Subscription } from 'dexie';
import { errorMessage } from '../shared/basics/errors';
import { AnimalCache, type CachedAnimal, type ProfileDb } from '../storage';
import type { SortKey } from './animal-sorting';
import { SavedIndex, SavedIndexBuilder, type SavedStatusFilter } from './saved-index';

export type { SavedStatusFilter } from './saved-index';
export const SAVED_STATUS_FILTERS: readonly SavedStatusFilter[] = ['all', 'available', 'pending', 'sold'];

export interface SavedLoading {
  /** Rows of the first screen (more when the last name is shared, up to `firstScreenMax`). */
  firstScreen?: number;
  firstScreenMax?: number;
  /** Rows per chunk of the full read. */
  chunkSize?: number;
  /** Runs the full read later (default: after the next frame is painted). */
  defer?: (run: () => void) => void;
}

const afterPaint = (run: () => void): void => {
  requestAnimationFrame(() => setTimeout(run, 0));
};

export class SavedAnimalsStore {
  /** Something is shown: at least the first screen has been read. */
  loaded = $state(false);
  /** Every saved animal has been read (until then, only the first screen is searched). */
  complete = $state(false);
  error = $state<string | null>(null);
  /** How many animals are saved. */
  total = $state(0);
  search = $state('');
  sort = $state<SortKey>('name');
  status = $state<SavedStatusFilter>('all');
  #index = $state.raw<SavedIndex>(SavedIndex.empty);
  readonly visible: CachedAnimal[] = $derived(this.#index.select(this.sort, this.status, this.search));
  /** The newest confirmation among the saved animals (once all are read). */
  readonly newestConfirmedAt: number | null = $derived(this.complete ? this.#index.newestConfirmedAt : null);

  readonly #cache: AnimalCache;
  readonly #firstScreen: number;
  readonly #firstScreenMax: number;
  readonly #chunkSize: number;
  readonly #defer: (run: () => void) => void;
  #subscription: Subscription | null = null;
  /** Bumped to cancel a read in progress. */
  #generation = 0;
  #reading = false;
  #readAgain = false;

  constructor(db: ProfileDb, options: SavedLoading = {}) {
    this.#cache = new AnimalCache(db);
    this.#firstScreen = options.firstScreen ?? 60;
    this.#firstScreenMax = options.firstScreenMax ?? 1000;
    this.#chunkSize = options.chunkSize ?? 1000;
    this.#defer = options.defer ?? afterPaint;
  }

  /** The number of animals read so far (the first screen, then all). */
  get read(): number {
    return this.#index.size;
  }

  start(): void {
    const cache = this.#cache;
    this.#subscription ??= liveQuery(async () => {
      // Both at once: the page waits for the later of the two reads, not their sum.
      const [first, total] = await Promise.all([
        cache.firstByName(this.#firstScreen, this.#firstScreenMax),
        cache.count(),
      ]);
      return { first, total };
    }).subscribe({
      next: ({ first, total }) => {
        this.total = total;
        this.error = null;
        if (first.length === total) {
          // The first screen is everything: nothing more to read (and an older read is stale).
          this.#cancelRead();
          this.#index = SavedIndex.of(first);
          this.complete = true;
        } else {
          if (!this.complete) this.#index = SavedIndex.of(first);
          this.#readAll();
        }
        this.loaded = true;
      },
      error: (error: unknown) => this.#fail(error),
    });
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
    this.#cancelRead();
  }

  #cancelRead(): void {
    this.#generation += 1;
    this.#reading = false;
    this.#readAgain = false;
  }

  /** Reads every saved animal in chunks (once more after it if something changed meanwhile). */
  #readAll(): void {
    if (this.#reading) {
      this.#readAgain = true;
      return;
    }
    this.#reading = true;
    const generation = this.#generation;
    this.#defer(() => {
      if (generation !== this.#generation) return;
      const builder = new SavedIndexBuilder();
      this.#cache
        .readInChunks(this.#chunkSize, (rows) => {
          if (generation !== this.#generation) return false;
          builder.add(rows);
          return true;
        })
        .then(
          () => {
            if (generation !== this.#generation) return;
            this.#index = builder.build();
            this.total = builder.size;
            this.complete = true;
          },
          (error: unknown) => {
            if (generation === this.#generation) this.#fail(error);
          },
        )
        .finally(() => {
          if (generation !== this.#generation) return;
          this.#reading = false;
          if (this.#readAgain) {
            this.#readAgain = false;
            this.#readAll();
          }
        });
    });
  }

  #fail(error: unknown): void {
    this.error = errorMessage(error);
  }
}
