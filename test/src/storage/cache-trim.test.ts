import { afterEach, describe, expect, it } from 'vitest';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { CACHE_TRIM_RULE, trimCache, trimCacheWhenDue } from '../../../src/storage/cache-trim';
import { Outbox } from '../../../src/storage/outbox';
import { animal, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function setup() {
  const fresh = freshDb();
  cleanups.push(fresh.close);
  const clock = new FakeClock();
  return {
    db: fresh.db,
    clock,
    cache: new AnimalCache(fresh.db),
    outbox: new Outbox(fresh.db, clock, new MemorySafetyCopy()),
  };
}

async function cachedIds(cache: AnimalCache): Promise<string[]> {
  return (await cache.all()).map((row) => row.id).sort();
}

describe('the cache trimming rule', () => {
  it('drops the animals and list results the service has not returned for 30 days, when an answer is saved', async () => {
    const { db, cache, clock } = setup();
    const t0 = clock.now();
    await cache.saveList({ limit: 20 }, [animal('1', 'A'), animal('2', 'B')], t0);
    await cache.saveAnimal(animal('3', 'C'), t0); // opened in the detail view
    await db.setAside.put({ id: 's1', table: 'outbox', raw: { x: 1 }, reason: 'unreadable', at: t0 });
    await db.categories.put({ id: '1', label: 'Dogs', updatedAt: t0 });

    // 29 days on, another query's answer: everything is young enough to stay.
    await cache.saveList({ status: 'sold', limit: 20 }, [animal('4', 'D', '1', 'sold')], t0 + 29 * DAY);
    expect(await cachedIds(cache)).toEqual(['1', '2', '3', '4']);
    expect(await cache.readList({ limit: 20 })).not.toBeNull();

    // 31 days on: the first answer and its animals are over 30 days old, the other answer is not.
    await cache.saveList({ status: 'pending', limit: 20 }, [], t0 + 31 * DAY);
    expect(await cachedIds(cache)).toEqual(['4']);
    expect(await cache.readList({ limit: 20 })).toBeNull();
    expect((await cache.readList({ status: 'sold', limit: 20 }))?.animals.map((row) => row.id)).toEqual(['4']);
    // Rows set aside and category names are never touched.
    expect(await db.setAside.count()).toBe(1);
    expect(await db.categories.count()).toBe(1);
  });

  it('keeps, whatever their age, the animals of a cached list result and the records of sent entries', async () => {
    const { db, cache, outbox, clock } = setup();
    const t0 = clock.now();
    const entry = await outbox.enqueue(newAnimal('Mine'));
    await outbox.markSent(entry.localId, animal('9', 'Mine')); // cached with confirmedAt t0
    // Put straight in: a list result younger than the record of an animal it lists.
    await db.animals.bulkPut([
      { id: '1', animal: animal('1', 'Listed'), confirmedAt: t0, firstSeenAt: t0 },
      { id: '2', animal: animal('2', 'Old'), confirmedAt: t0, firstSeenAt: t0 },
    ]);
    await db.queries.put({ key: 'all:20', status: null, limit: 20, ids: ['1'], fetchedAt: t0 + 10 * DAY });

    expect(await trimCache(db, t0 + 31 * DAY)).toEqual({ skipped: null, queries: 0, animals: 1 });
    expect(await cachedIds(cache)).toEqual(['1', '9']);
  });

  it('trims nothing while the outbox holds an entry the service has not confirmed, or a row it cannot read', async () => {
    const { db, cache, outbox, clock } = setup();
    const t0 = clock.now();
    await cache.saveAnimal(animal('1', 'Old'), t0);
    const entry = await outbox.enqueue(newAnimal('Waiting'));

    const later = t0 + 31 * DAY;
    expect(await trimCache(db, later)).toEqual({ skipped: 'unconfirmed_entries', queries: 0, animals: 0 });
    expect(await cachedIds(cache)).toEqual(['1']);
    expect((await outbox.readAll()).entries).toHaveLength(1);

    await outbox.markSent(entry.localId, animal('2', 'Waiting'));
    await db.outbox.put({ localId: 'broken', seq: 99 } as never);
    expect((await trimCache(db, later)).skipped).toBe('unconfirmed_entries');

    await db.outbox.delete('broken');
    expect(await trimCache(db, later)).toEqual({ skipped: null, queries: 0, animals: 1 });
    expect(await cachedIds(cache)).toEqual(['2']);
  });

  it('caps the number of animals, dropping the least recently returned that nothing keeps', async () => {
    const { db, cache } = setup();
    await db.animals.bulkPut(
      ['1', '2', '3', '4', '5'].map((id) => ({ id, animal: animal(id, `N${id}`), confirmedAt: Number(id) })),
    );
    await db.queries.put({ key: 'all:20', status: null, limit: 20, ids: ['1'], fetchedAt: 5 });
    const rule = { maxAgeMs: 100 * DAY, maxAnimals: 3, everyMs: HOUR };
    expect(await trimCache(db, 6, rule)).toEqual({ skipped: null, queries: 0, animals: 2 });
    expect(await cachedIds(cache)).toEqual(['1', '4', '5']);
  });

  it('caps above the 10,000 animals "Saved on this device" is built for', () => {
    expect(CACHE_TRIM_RULE.maxAnimals).toBeGreaterThan(10_000);
    expect(CACHE_TRIM_RULE.maxAgeMs).toBe(30 * DAY);
  });

  it('runs at most once an hour per database, and again at the next answer after a skipped trim', async () => {
    const { db, cache, outbox, clock } = setup();
    const t0 = clock.now();
    const old = { id: '1', animal: animal('1', 'Old'), confirmedAt: t0 - 40 * DAY, firstSeenAt: t0 - 40 * DAY };

    expect((await trimCacheWhenDue(db, t0))?.skipped).toBeNull();
    await db.animals.put(old);
    expect(await trimCacheWhenDue(db, t0 + HOUR - 1)).toBeNull();
    expect(await cachedIds(cache)).toEqual(['1']);
    expect((await trimCacheWhenDue(db, t0 + HOUR))?.animals).toBe(1);

    await db.animals.put(old);
    const entry = await outbox.enqueue(newAnimal('Waiting'));
    expect((await trimCacheWhenDue(db, t0 + 2 * HOUR))?.skipped).toBe('unconfirmed_entries');
    await outbox.markSent(entry.localId, animal('2', 'Waiting'));
    // Not an hour since the skipped try: the rule runs at once all the same.
    expect((await trimCacheWhenDue(db, t0 + 2 * HOUR + 1))?.animals).toBe(1);
  });
});
