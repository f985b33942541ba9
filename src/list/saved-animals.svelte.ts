/**
 * "Saved on this device": every cached animal of the profile, from IndexedDB, searchable,
 * sortable and filterable by status. Works with no network at all.
 *
 * Reading 10,000 animals in one go blocks the page for hundreds of milliseconds, so:
 * - a live query (Dexie liveQuery) reads only the first screen (the first names, by index)
 *   and the count; it runs again whenever the saved animals change;
 * - once a screen shows that first screen, and the frame after it is painted, everything is read
 *   in chunks (one task each, so the page stays responsive) into a SavedIndex, sorted both ways and
 *   split by status once. Not before: the chunks would run among the window's start-up tasks and
 *   hold its first rows back (about 40 ms of sorting with 10,000 saved), and no screen but this
 *   one reads them;
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
  /** Runs the full read later (default: once a screen shows the first screen, after the next frame is painted). */
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
  /** How many screens show these animals now (see `showing`). */
  #screens = 0;
  /** The full read, held (by the default `defer`) until a screen shows the first screen. */
  #held: (() => void) | null = null;

  constructor(db: ProfileDb, options: SavedLoading = {}) {
    this.#cache = new AnimalCache(db);
    this.#firstScreen = options.firstScreen ?? 60;
    this.#firstScreenMax = options.firstScreenMax ?? 1000;
    this.#chunkSize = options.chunkSize ?? 1000;
    this.#defer = options.defer ?? ((run) => (this.#screens > 0 ? afterPaint(run) : (this.#held = run)));
  }

  /**
   * A screen shows these animals (call it once its first rows are drawn): the full read may start,
   * after the next frame. Returns the screen's end; while no screen shows them, a change of the
   * saved animals reads the first screen again but holds the full read until one does.
   */
  showing(): () => void {
    this.#screens += 1;
    const held = this.#held;
    this.#held = null;
    if (held) afterPaint(held);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#screens -= 1;
    };
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
      // What changed while the read waited to start is read now: only later changes read again.
      this.#readAgain = false;
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
