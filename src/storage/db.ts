/**
 * The renderer's IndexedDB database: one per profile (`adoption-desk.<profileId>`), holding
 * the animal cache, the cached list results, the outbox of animals entered but not yet
 * confirmed by the service, rows moved aside because they failed validation, and metadata.
 *
 * Schema history (never edit a released version; add a new one with an upgrade):
 * - version 1: animals by id, queries by key, outbox by localId (ordered by createdAt).
 * - version 2: outbox rows get `seq`, a strictly increasing number, so creation order holds
 *   even when two entries share a millisecond; animals get `firstSeenAt`, the time the app
 *   first saw them, which reconciliation uses to tell a just-created animal from an old one.
 * - version 3: animals get an index on `animal.name`, so "Saved on this device" reads its
 *   first screen (the first names) without reading every saved animal. No data changes.
 * - version 4: outbox rows may be `check_needed` (staff decide whether an animal on the
 *   service is this entry) and get `failures` (failed tries in a row, for the backoff),
 *   `doubtSince` (replacing the `unknownOutcome` flag: when a send first may have reached the
 *   service unanswered), `check` (what staff are asked about) and `notOurs` (service ids staff
 *   said are not this entry). Indexes unchanged.
 * - version 5: a `categories` table (category id → the name staff gave it, src/categories/category-table.ts).
 *   Nothing else changes; the upgrade only creates the empty table.
 * - version 6: the table of rows set aside is named as staff see it, `setAside` (it was
 *   `quarantine`); the upgrade copies every row across.
 * - version 7: the old `quarantine` table is deleted (Dexie reads a table in an upgrade only
 *   while a later version deletes it).
 * - version 8: animals get an index on `confirmedAt`, so the cache's trimming rule
 *   (cache-trim.ts) finds the animals the service has not returned for long without reading
 *   every saved animal. No data changes.
 * - version 9: an outbox row's animal is `animal` (it was `pet`), as everywhere else in the app; the
 *   upgrade renames it in the outbox and in the outbox rows set aside (`upgradeOutboxToV9`).
 */
import Dexie, { type Table } from 'dexie';
import type { Animal, AnimalStatus } from '../shared/records/animal';
import type { OutboxRow } from './outbox-records';

export interface CachedAnimal {
  id: string;
  animal: Animal;
  /** When the service last returned this animal (local epoch ms). */
  confirmedAt: number;
  /** When the app first saw this animal (local epoch ms); absent only on rows older than version 2. */
  firstSeenAt?: number;
}

export interface CachedQuery {
  key: string;
  status: AnimalStatus | null;
  limit: number;
  ids: string[];
  fetchedAt: number;
}

/** A stored row that could not be read, set aside for staff ("Set aside: records that could not be read"). */
export interface SetAsideRow {
  id: string;
  /** Which table the row came from, e.g. `outbox`. */
  table: string;
  raw: unknown;
  reason: string;
  at: number;
}

export interface MetaRow {
  key: string;
  value: unknown;
}

export const DB_NAME_PREFIX = 'adoption-desk.';
export const SCHEMA_VERSION = 9;

/** The stores of version 1, kept so the upgrade path from it stays testable. */
export const SCHEMA_V1 = {
  animals: 'id',
  queries: 'key',
  outbox: 'localId, createdAt, state',
  quarantine: 'id, at',
  meta: 'key',
} as const;

export const SCHEMA_V2 = {
  animals: 'id',
  queries: 'key',
  outbox: 'localId, &seq, state',
  quarantine: 'id, at',
  meta: 'key',
} as const;

export const SCHEMA_V3 = {
  ...SCHEMA_V2,
  animals: 'id, animal.name',
} as const;

/** Version 4 changes outbox rows only (see `upgradeOutboxToV4`). */
export const SCHEMA_V4 = SCHEMA_V3;

/** Version 5 adds the category names (see src/categories/category-table.ts). */
export const SCHEMA_V5 = { ...SCHEMA_V4, categories: 'id' } as const;

/** Version 6 adds `setAside` beside `quarantine`; version 7 drops `quarantine`. */
export const SCHEMA_V6 = { ...SCHEMA_V5, setAside: 'id, at' } as const;
export const SCHEMA_V7 = { ...SCHEMA_V6, quarantine: null } as const;
/** Version 8 indexes `confirmedAt` (the trimming rule, cache-trim.ts). */
export const SCHEMA_V8 = { ...SCHEMA_V7, animals: 'id, animal.name, confirmedAt' } as const;
/** Version 9 changes outbox rows only: their animal was `pet` (see `upgradeOutboxToV9`). */
export const SCHEMA_V9 = SCHEMA_V8;

/** A category name of the profile, as stored (version 5). */
export interface CategoryRow {
  id: string;
  label: string;
  updatedAt: number;
}

/** Fills the version-4 fields of an outbox row of version 3 (in place). */
export function upgradeOutboxToV4(row: Record<string, unknown>): void {
  const inDoubt = row.unknownOutcome === true || row.state === 'sending';
  row.failures ??= 0;
  row.doubtSince ??= inDoubt ? (row.updatedAt ?? null) : null;
  row.check ??= null;
  row.notOurs ??= [];
  delete row.unknownOutcome;
}

/**
 * Renames an outbox row's `pet` to `animal` (in place): the one place that knows the old name, for the
 * rows of version 8 and before (the outbox's, and the outbox rows set aside as they were stored).
 */
export function upgradeOutboxToV9(row: Record<string, unknown>): void {
  if (!('pet' in row)) return;
  row.animal ??= row.pet;
  delete row.pet;
}

/** An IndexedDB implementation other than the browser's (the window's memory, when that cannot be used). */
export interface IndexedDbFactory {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

export class ProfileDb extends Dexie {
  animals!: Table<CachedAnimal, string>;
  queries!: Table<CachedQuery, string>;
  outbox!: Table<OutboxRow, string>;
  setAside!: Table<SetAsideRow, string>;
  meta!: Table<MetaRow, string>;
  categories!: Table<CategoryRow, string>;

  /** Why the browser's storage could not be used, when this database lives in the window's memory. */
  readonly inMemoryBecause: string | null;

  constructor(
    readonly profileId: string,
    memory: { factory: IndexedDbFactory; because: string } | null = null,
  ) {
    // Strict durability: a committed transaction is on disk, so an entered animal survives
    // a crash or power cut right after the form said "saved".
    super(`${DB_NAME_PREFIX}${profileId}`, { chromeTransactionDurability: 'strict', ...memory?.factory });
    this.inMemoryBecause = memory?.because ?? null;
    this.version(1).stores(SCHEMA_V1);
    this.version(2)
      .stores(SCHEMA_V2)
      .upgrade(async (tx) => {
        const rows = (await tx.table('outbox').toArray()) as Array<Record<string, unknown>>;
        rows.sort(
          (a, b) => Number(a.createdAt) - Number(b.createdAt) || String(a.localId).localeCompare(String(b.localId)),
        );
        let seq = 0;
        for (const row of rows) {
          seq += 1;
          await tx.table('outbox').put({
            ...row,
            seq,
            nextAttemptAt: row.nextAttemptAt ?? null,
            unknownOutcome: row.unknownOutcome ?? false,
          });
        }
        await tx
          .table('animals')
          .toCollection()
          .modify((row: Record<string, unknown>) => {
            row.firstSeenAt ??= row.confirmedAt;
          });
      });
    this.version(3).stores(SCHEMA_V3);
    this.version(4)
      .stores(SCHEMA_V4)
      .upgrade((tx) => tx.table('outbox').toCollection().modify(upgradeOutboxToV4));
    this.version(5).stores(SCHEMA_V5);
    this.version(6)
      .stores(SCHEMA_V6)
      .upgrade(async (tx) => {
        await tx.table('setAside').bulkPut(await tx.table('quarantine').toArray());
      });
    this.version(7).stores(SCHEMA_V7);
    this.version(8).stores(SCHEMA_V8);
    this.version(9)
      .stores(SCHEMA_V9)
      .upgrade(async (tx) => {
        await tx.table('outbox').toCollection().modify(upgradeOutboxToV9);
        await tx
          .table('setAside')
          .toCollection()
          .modify((row: SetAsideRow) => {
            if (row.table === 'outbox' && typeof row.raw === 'object' && row.raw !== null) {
              upgradeOutboxToV9(row.raw as Record<string, unknown>);
            }
          });
      });
  }
}

const open = new Map<string, ProfileDb>();

/** The database of one profile; the same instance for the same profile id. */
export function openProfileDb(profileId: string): ProfileDb {
  let db = open.get(profileId);
  if (!db) {
    db = new ProfileDb(profileId);
    open.set(profileId, db);
  }
  return db;
}

/**
 * Whether a profile's database is already on this computer (without opening it: opening a
 * missing one would create it).
 */
export async function profileDbExists(profileId: string): Promise<boolean> {
  const names = await Dexie.getDatabaseNames();
  return names.includes(`${DB_NAME_PREFIX}${profileId}`);
}

/**
 * Whether a profile's database is here to read: open in this window (a session has it: a missing one
 * is made by its first read, as staff use the profile), or on this computer.
 */
export async function profileDbHere(profileId: string): Promise<boolean> {
  return open.has(profileId) || (await profileDbExists(profileId));
}

/**
 * Opens a profile's database in this window's memory instead of the browser's storage, which
 * cannot be used (damaged, blocked, over quota): the next `openProfileDb` of this profile gives it.
 * What it holds is put there from the safety copy and lasts while the window is open; the
 * safety copy stays the durable copy (restore.ts). fake-indexeddb is loaded on first need only.
 */
export async function openMemoryProfileDb(profileId: string, because: string): Promise<ProfileDb> {
  const { IDBFactory: MemoryFactory, IDBKeyRange: MemoryKeyRange } = await import('fake-indexeddb');
  open.get(profileId)?.close();
  const factory = { indexedDB: new MemoryFactory(), IDBKeyRange: MemoryKeyRange };
  const db = new ProfileDb(profileId, { factory, because });
  open.set(profileId, db);
  return db;
}

/** Closes a profile's database and forgets the instance (the next open makes a new one). */
export function closeProfileDb(profileId: string): void {
  open.get(profileId)?.close();
  open.delete(profileId);
}

/** Deletes a profile's database with everything in it (when the profile is removed). */
export async function deleteProfileDb(profileId: string): Promise<void> {
  const db = open.get(profileId) ?? new ProfileDb(profileId);
  open.delete(profileId);
  await db.delete();
}

/** The key of a cached list result: `all:20`, `sold:100`. */
export function queryKey(query: { status?: AnimalStatus | null; limit: number }): string {
  return `${query.status ?? 'all'}:${query.limit}`;
}
