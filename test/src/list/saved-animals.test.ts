import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchAndSort } from '../../../src/list/animal-sorting';
import { SavedAnimalsStore } from '../../../src/list/saved-animals.svelte';
import { SavedIndex, SavedIndexBuilder } from '../../../src/list/saved-index';
import type { Animal } from '../../../src/shared/records/animal';
import { AnimalCache } from '../../../src/storage/animal-cache';
import type { CachedAnimal } from '../../../src/storage/db';
import { animal, freshDb } from '../support/test-helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

const STATUSES = ['available', 'pending', 'sold'] as const;
const NAMES = ['Bella', 'émile', 'Zed', 'amy', 'Rex 10', 'Rex 9', 'Émile', 'Bella Bean'];

function rows(count: number, firstId = 1): CachedAnimal[] {
  return Array.from({ length: count }, (_, i) => {
    const id = String(firstId + i);
    const record: Animal = animal(id, NAMES[(i * 7) % NAMES.length]!, '1', STATUSES[i % 3]);
    return { id, animal: record, confirmedAt: 1000 + ((i * 13) % 50), firstSeenAt: 1 };
  });
}

function setup(options: ConstructorParameters<typeof SavedAnimalsStore>[1] = {}) {
  const { db, close } = freshDb();
  const deferred: Array<() => void> = [];
  const store = new SavedAnimalsStore(db, { defer: (run) => deferred.push(run), ...options });
  cleanups.push(() => {
    store.stop();
    close();
  });
  /** Runs the deferred full read (as after the first paint) and waits for it. */
  const readAll = async () => {
    expect(deferred.length).toBeGreaterThan(0);
    deferred.splice(0).forEach((run) => run());
    await until(() => store.complete);
  };
  return { db, store, deferred, readAll };
}

/** Waits for IndexedDB's own tasks (fake-indexeddb settles in macrotasks), asserting the condition. */
async function until(condition: () => boolean): Promise<void> {
  await vi.waitFor(() => expect(condition()).toBe(true), { timeout: 2_000, interval: 2 });
}

describe('SavedIndex', () => {
  it('built chunk by chunk, sorts, filters and searches exactly like searchAndSort', () => {
    const all = rows(250);
    const builder = new SavedIndexBuilder();
    for (let i = 0; i < all.length; i += 37) builder.add(all.slice(i, i + 37).reverse());
    const index = builder.build();
    expect(index.size).toBe(250);
    expect(index.newestConfirmedAt).toBe(1049);
    for (const sort of ['name', 'id'] as const) {
      for (const status of ['all', ...STATUSES] as const) {
        for (const search of ['', 'EMI', ' bel ', 'rex 1', 'nobody']) {
          const expected = searchAndSort(
            all.filter((row) => status === 'all' || row.animal.status === status),
            search,
            sort,
          );
          expect(index.select(sort, status, search).map((row) => row.id)).toEqual(expected.map((row) => row.id));
        }
      }
    }
    expect(
      index
        .select('name', 'all', '')
        .slice(0, 3)
        .map((row) => row.animal.name),
    ).toEqual(['amy', 'amy', 'amy']);
    expect(
      index
        .select('id', 'sold', '')
        .slice(0, 3)
        .map((row) => row.id),
    ).toEqual(['3', '6', '9']);
  });

  it('orders ids above 2^53 exactly and keeps animals without a status under "all" only', () => {
    const big = (id: string, status?: Animal['status']): CachedAnimal => ({
      id,
      animal: animal(id, 'Same', '1', status),
      confirmedAt: 1,
    });
    const index = SavedIndex.of([big('9007199254740993'), big('9007199254740992', 'sold'), big('10', 'sold')]);
    expect(index.select('name', 'all', '').map((row) => row.id)).toEqual([
      '10',
      '9007199254740992',
      '9007199254740993',
    ]);
    expect(index.select('id', 'sold', '').map((row) => row.id)).toEqual(['10', '9007199254740992']);
    expect(SavedIndex.empty.select('name', 'all', 'x')).toEqual([]);
  });
});

describe('AnimalCache reads for the saved view', () => {
  it('reads the first names by index (with every animal sharing the last one) and everything in chunks', async () => {
    const { db } = freshDb();
    const cache = new AnimalCache(db);
    await db.animals.bulkPut(rows(100));
    const first = await cache.firstByName(5, 1000);
    // by code unit: 'Bella' < 'Bella Bean' < 'Rex 10' < … < 'amy' < 'émile'; all 13 'Bella' come, not only 5
    expect(first.every((row) => row.animal.name === 'Bella')).toBe(true);
    expect(first).toHaveLength(rows(100).filter((row) => row.animal.name === 'Bella').length);
    expect(await cache.firstByName(5, 7)).toHaveLength(7);

    const chunks: number[] = [];
    await cache.readInChunks(30, (chunk) => (chunks.push(chunk.length), true));
    expect(chunks).toEqual([30, 30, 30, 10]);
    const stopped: number[] = [];
    await cache.readInChunks(30, (chunk) => (stopped.push(chunk.length), false));
    expect(stopped).toEqual([30]);
    db.close();
  });
});

describe('SavedAnimalsStore', () => {
  it('shows the first screen at once, then reads everything in chunks off the critical path', async () => {
    const { db, store, deferred, readAll } = setup({ firstScreen: 4, firstScreenMax: 20, chunkSize: 64 });
    await db.animals.bulkPut(rows(300));
    store.start();
    await until(() => store.loaded);
    expect(store.total).toBe(300);
    expect(store.complete).toBe(false);
    expect(store.read).toBeLessThanOrEqual(20);
    expect(store.visible.length).toBe(store.read);
    expect(store.newestConfirmedAt).toBeNull();
    expect(deferred).toHaveLength(1); // the full read waits for the first paint

    await readAll();
    expect(store.read).toBe(300);
    expect(store.visible.map((row) => row.id)).toEqual(searchAndSort(rows(300), '', 'name').map((row) => row.id));
    expect(store.newestConfirmedAt).toBe(1049);
  });

  it('filters by status, searches and sorts over every saved animal', async () => {
    const { db, store, readAll } = setup({ firstScreen: 4, chunkSize: 50 });
    const all = rows(120);
    await db.animals.bulkPut(all);
    store.start();
    await until(() => store.loaded);
    await readAll();

    store.status = 'pending';
    expect(store.visible).toHaveLength(40);
    expect(store.visible.every((row) => row.animal.status === 'pending')).toBe(true);
    store.sort = 'id';
    store.search = 'emile';
    const expected = searchAndSort(
      all.filter((row) => row.animal.status === 'pending'),
      'emile',
      'id',
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(store.visible.map((row) => row.id)).toEqual(expected.map((row) => row.id));
    store.status = 'all';
    store.search = '';
    expect(store.visible).toHaveLength(120);
    expect(store.visible[0]?.id).toBe('1');
  });

  it('with few animals the first screen is everything; later changes are read again', async () => {
    const { db, store, deferred, readAll } = setup({ firstScreen: 60, chunkSize: 50 });
    await db.animals.bulkPut(rows(10));
    store.start();
    await until(() => store.loaded && store.total === 10);
    expect(store.complete).toBe(true);
    expect(deferred).toHaveLength(0);
    expect(store.visible).toHaveLength(10);

    await db.animals.bulkPut(rows(90, 11));
    await until(() => store.total === 100);
    expect(store.visible).toHaveLength(10); // the complete old index stays until the new one is read
    await readAll();
    await until(() => store.read === 100);
    expect(store.visible).toHaveLength(100);

    await db.animals.clear();
    await until(() => store.total === 0);
    expect(store.visible).toEqual([]);
  });
  it('holds the full read until a screen shows the first screen, so it never delays the first rows', async () => {
    const { db, close } = freshDb();
    const store = new SavedAnimalsStore(db, { firstScreen: 4, firstScreenMax: 20, chunkSize: 64 }); // the app's own wait
    cleanups.push(() => {
      store.stop();
      close();
    });
    const fullReads = vi.spyOn(AnimalCache.prototype, 'readInChunks');
    cleanups.push(() => fullReads.mockRestore());
    const frameThenTask = () => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    await db.animals.bulkPut(rows(300));
    store.start();
    await until(() => store.loaded);
    for (let frame = 0; frame < 3; frame += 1) await frameThenTask();
    expect(fullReads).not.toHaveBeenCalled(); // no screen shows them yet: only the first screen is read
    expect(store.read).toBeLessThanOrEqual(20);
    expect(store.complete).toBe(false);

    const ended = store.showing();
    await until(() => store.complete);
    expect(fullReads).toHaveBeenCalledTimes(1);
    expect(store.read).toBe(300);
    ended();

    // No screen shows them any more: a change reads the first screen again and holds the rest.
    await db.animals.bulkPut(rows(50, 301));
    await until(() => store.total === 350);
    for (let frame = 0; frame < 3; frame += 1) await frameThenTask();
    expect(fullReads).toHaveBeenCalledTimes(1);
    expect(store.read).toBe(300);
    const endedAgain = store.showing();
    await until(() => store.read === 350);
    expect(fullReads).toHaveBeenCalledTimes(2); // once: what changed while it waited is read with it
    endedAgain();
  });
});
