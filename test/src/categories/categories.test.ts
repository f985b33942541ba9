import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { CategoryError, CategoryTable } from '../../../src/categories/category-table';
import { DB_NAME_PREFIX, openProfileDb, SCHEMA_V4, SCHEMA_VERSION } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { entriesOf, FakeClock, freshDb, MemorySafetyCopy, uniqueProfileId } from '../support/test-helpers';

describe('CategoryTable (schema version 5)', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  function setup() {
    const fresh = freshDb();
    cleanups.push(fresh.close);
    return { db: fresh.db, table: new CategoryTable(fresh.db, new FakeClock()) };
  }

  it('names, renames and removes categories; ids are canonical and kept exact', async () => {
    const { table } = setup();
    await table.set('007', ' Dogs ');
    await table.set('2', 'Cats');
    await table.set('9223372036854775807', 'Big ones');
    await table.set('2', 'Kittens');
    expect(await table.all()).toEqual([
      { id: '2', label: 'Kittens' },
      { id: '7', label: 'Dogs' },
      { id: '9223372036854775807', label: 'Big ones' },
    ]);
    await table.remove('7');
    expect((await table.all()).map((c) => c.id)).toEqual(['2', '9223372036854775807']);
  });

  it('refuses a bad id, a bad name and a name another id has, changing nothing', async () => {
    const { table } = setup();
    await table.set('1', 'Dogs');
    await expect(table.set('1.5', 'Birds')).rejects.toThrow('The category ID must be a whole number, such as 3.');
    await expect(table.set('3', '')).rejects.toThrow('The name cannot be used: the name is empty.');
    await expect(table.set('3', '42')).rejects.toThrow(CategoryError);
    await expect(table.set('3', 'DÔGS')).rejects.toThrow('categories 1 and 3 are both called “DÔGS”');
    expect(await table.all()).toEqual([{ id: '1', label: 'Dogs' }]);
  });

  it('replaces the whole table from a file in one transaction, or not at all', async () => {
    const { table } = setup();
    await table.set('1', 'Dogs');
    await table.replaceAll([
      { id: '2', label: 'Cats' },
      { id: '3', label: 'Birds' },
    ]);
    expect(await table.all()).toEqual([
      { id: '2', label: 'Cats' },
      { id: '3', label: 'Birds' },
    ]);
    await expect(
      table.replaceAll([
        { id: '4', label: 'Fish' },
        { id: '5', label: 'fish' },
      ]),
    ).rejects.toThrow(CategoryError);
    expect((await table.all()).map((c) => c.label)).toEqual(['Cats', 'Birds']);
  });

  it('leaves out a row edited by hand into something invalid', async () => {
    const { db, table } = setup();
    await db.categories.put({ id: 'x', label: 'Broken', updatedAt: 0 });
    await table.set('1', 'Dogs');
    expect(await table.all()).toEqual([{ id: '1', label: 'Dogs' }]);
  });

  it('upgrades a version-4 database: the outbox is kept and an empty categories table appears', async () => {
    const profileId = uniqueProfileId();
    const old = new Dexie(`${DB_NAME_PREFIX}${profileId}`);
    old.version(4).stores(SCHEMA_V4);
    await old.open();
    const now = 1_700_000_000_000;
    await old.table('outbox').put({
      localId: 'a',
      idempotencyKey: crypto.randomUUID(),
      pet: { name: 'Rex', categoryId: '1' },
      createdAt: now,
      updatedAt: now,
      state: 'queued',
      attempts: 0,
      lastError: null,
      serverId: null,
      nextAttemptAt: null,
      failures: 0,
      doubtSince: null,
      check: null,
      notOurs: [],
      seq: 1,
    });
    old.close();

    const db = openProfileDb(profileId);
    cleanups.push(() => db.close());
    expect(
      (await entriesOf(new Outbox(db, undefined, new MemorySafetyCopy()))).map((entry) => entry.animal.name),
    ).toEqual(['Rex']);
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(5);
    expect(await new CategoryTable(db).all()).toEqual([]);
  });
});
