import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { AnimalCache } from '../../../src/storage/animal-cache';
import {
  DB_NAME_PREFIX,
  openProfileDb,
  queryKey,
  SCHEMA_V1,
  SCHEMA_V3,
  SCHEMA_V5,
  SCHEMA_VERSION,
} from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { animal, entriesOf, FakeClock, freshDb, MemorySafetyCopy, uniqueProfileId } from '../support/test-helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function setup() {
  const fresh = freshDb();
  cleanups.push(fresh.close);
  return { ...fresh, cache: new AnimalCache(fresh.db) };
}

describe('AnimalCache', () => {
  it('reads the first names plus the ties of the last one, within and past the spare rows', async () => {
    const { db, cache } = setup();
    const names = ['Ada', 'Bo', 'Bo', 'Bo', 'Cy', 'Bo', 'Dee', 'Bo', 'Bo'];
    await db.animals.bulkPut(
      names.map((name, i) => ({ id: String(i + 1), animal: animal(String(i + 1), name), confirmedAt: 1 })),
    );
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    const expected = ['1', '2', '3', '4', '6', '8', '9']; // Ada, then every Bo (by name, then id)
    expect(ids(await cache.firstByName(2, 100))).toEqual(expected); // ties end within the spare rows
    expect(ids(await cache.firstByName(2, 100, 2))).toEqual(expected); // ties go past them: read again
    expect(ids(await cache.firstByName(2, 4, 40))).toEqual(['1', '2', '3', '4']); // at most max
    expect(ids(await cache.firstByName(20, 100))).toHaveLength(names.length); // fewer than asked
    expect(ids(await cache.firstByName(8, 100))).toEqual([...expected, '5']); // Cy is the eighth name
  });

  it('names queries by status and limit', () => {
    expect(queryKey({ limit: 20 })).toBe('all:20');
    expect(queryKey({ status: 'sold', limit: 100 })).toBe('sold:100');
  });

  it('stores a list in the service order and reads it back with its fetch time', async () => {
    const { cache } = setup();
    const list = [animal('30', 'C', '1', 'sold'), animal('9007199254740993', 'A', '1', 'sold'), animal('2', 'B')];
    await cache.saveList({ limit: 20 }, list, 1000);
    const read = await cache.readList({ limit: 20 });
    expect(read?.fetchedAt).toBe(1000);
    expect(read?.animals.map((a) => a.id)).toEqual(['30', '9007199254740993', '2']);
    expect(read?.animals[1]).toEqual({ id: '9007199254740993', animal: list[1], confirmedAt: 1000, firstSeenAt: 1000 });
    expect(await cache.readList({ limit: 100 })).toBeNull();
    expect(await cache.count()).toBe(3);
    expect((await cache.all()).map((a) => a.id).sort()).toEqual(['2', '30', '9007199254740993']);
  });

  it('keeps the newer answer when an older one arrives late', async () => {
    const { cache } = setup();
    await cache.saveList({ limit: 20 }, [animal('1', 'New name')], 2000);
    await cache.saveList({ limit: 20 }, [animal('1', 'Old name'), animal('2', 'Gone')], 1000);
    const read = await cache.readList({ limit: 20 });
    expect(read?.fetchedAt).toBe(2000);
    expect(read?.animals.map((a) => a.animal.name)).toEqual(['New name']);
    expect((await cache.read('1'))?.animal.name).toBe('New name');
    expect(await cache.read('2')).toMatchObject({ confirmedAt: 1000 });
  });

  it('leaves out of a status list an animal since seen with another status', async () => {
    const { cache } = setup();
    await cache.saveList({ status: 'available', limit: 20 }, [animal('1', 'Rex', '1', 'available')], 1000);
    await cache.saveAnimal(animal('1', 'Rex', '1', 'sold'), 2000);
    expect((await cache.readList({ status: 'available', limit: 20 }))?.animals).toEqual([]);
    expect(await cache.read('1')).toMatchObject({ confirmedAt: 2000, firstSeenAt: 1000 });
  });

  it('is separate for each profile', async () => {
    const a = setup();
    const b = setup();
    await a.cache.saveAnimal(animal('1', 'Rex'), 1);
    expect(await b.cache.count()).toBe(0);
    expect(a.db.name).toBe(`${DB_NAME_PREFIX}${a.profileId}`);
    expect(openProfileDb(a.profileId)).toBe(a.db);
  });
});

describe('schema migration', () => {
  it('keeps the rows set aside when their table takes the name staff see (quarantine → setAside)', async () => {
    const profileId = uniqueProfileId();
    const old = new Dexie(`${DB_NAME_PREFIX}${profileId}`);
    old.version(5).stores(SCHEMA_V5);
    const row = { id: 'outbox:broken-1', table: 'outbox', raw: { localId: 'broken-1' }, reason: 'row: bad', at: 5 };
    await old.table('quarantine').put(row);
    old.close();

    const db = openProfileDb(profileId);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.setAside.toArray()).toEqual([row]);
    expect(db.tables.map((table) => table.name)).not.toContain('quarantine');
    cleanups.push(() => db.close());
  });

  it('upgrades a version 3 outbox: an entry in doubt keeps its doubt, from when it was last touched', async () => {
    const profileId = uniqueProfileId();
    const old = new Dexie(`${DB_NAME_PREFIX}${profileId}`);
    old.version(3).stores(SCHEMA_V3);
    const row = (localId: string, seq: number, unknownOutcome: boolean, state = 'queued') => ({
      localId,
      seq,
      idempotencyKey: crypto.randomUUID(),
      pet: { name: localId, categoryId: '1' },
      createdAt: 100,
      updatedAt: 100 + seq,
      state,
      attempts: 1,
      lastError: null,
      serverId: null,
      nextAttemptAt: null,
      unknownOutcome,
    });
    await old.table('outbox').bulkPut([row('known', 1, false), row('doubt', 2, true), row('cut', 3, false, 'sending')]);
    old.close();

    const db = openProfileDb(profileId);
    cleanups.push(() => db.close());
    const entries = await entriesOf(new Outbox(db, new FakeClock(), new MemorySafetyCopy()));
    expect(entries.map((e) => [e.localId, e.state, e.doubtSince, e.failures])).toEqual([
      ['known', 'queued', null, 0],
      ['doubt', 'queued', 102, 0],
      ['cut', 'sending', 103, 0],
    ]);
    expect(entries.every((e) => e.check === null && e.notOurs.length === 0 && !('unknownOutcome' in e))).toBe(true);
  });

  it('upgrades a version 1 database: outbox order kept, new fields filled, nothing lost', async () => {
    const profileId = uniqueProfileId();
    const old = new Dexie(`${DB_NAME_PREFIX}${profileId}`);
    old.version(1).stores(SCHEMA_V1);
    const row = (localId: string, createdAt: number, name: string) => ({
      localId,
      idempotencyKey: crypto.randomUUID(),
      pet: { name, categoryId: '1' },
      createdAt,
      updatedAt: createdAt,
      state: 'queued',
      attempts: 0,
      lastError: null,
      serverId: null,
    });
    await old.table('outbox').bulkPut([row('b', 200, 'Second'), row('a', 100, 'First'), row('c', 300, 'Third')]);
    await old.table('animals').put({ id: '7', animal: animal('7', 'Tom'), confirmedAt: 50 });
    await old.table('queries').put({ key: 'all:20', status: null, limit: 20, ids: ['7'], fetchedAt: 50 });
    old.close();

    const db = openProfileDb(profileId);
    cleanups.push(() => db.close());
    const outbox = new Outbox(db, new FakeClock(), new MemorySafetyCopy());
    const entries = await entriesOf(outbox);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(entries.map((e) => e.animal.name)).toEqual(['First', 'Second', 'Third']);
    expect(entries[0]).toMatchObject({ nextAttemptAt: null, failures: 0, doubtSince: null, check: null, notOurs: [] });
    expect(entries[0]).not.toHaveProperty('unknownOutcome');
    expect((await db.outbox.toArray()).map((r) => [r.localId, r.seq]).sort()).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    expect((await outbox.readAll()).unreadable).toEqual([]); // every upgraded row passes the schema
    const cache = new AnimalCache(db);
    expect(await cache.read('7')).toMatchObject({ confirmedAt: 50, firstSeenAt: 50 });
    expect((await cache.readList({ limit: 20 }))?.animals.map((a) => a.id)).toEqual(['7']);
    const next = await outbox.enqueue({ name: 'Fourth', categoryId: '1' });
    expect((await entriesOf(outbox)).at(-1)).toEqual(next);
  });
});
