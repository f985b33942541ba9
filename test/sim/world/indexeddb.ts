/**
 * IndexedDB of the simulated computers: each computer's browser storage is one fake-indexeddb
 * factory, shared by that computer's windows (one origin). The process has one `indexedDB`
 * global, which Dexie reads once when it loads, so the global is a router: a database goes to
 * the computer whose profile it belongs to (`adoption-desk.<profileId>`: profile ids are unique
 * across the simulated computers, see device.ts); the built-in profiles' databases, which every
 * window opens and none writes, go to a storage of their own.
 *
 * `clearSiteData` is what clearing a site's data in Chromium does: every open connection is
 * closed by force (its `close` event fires, as Chromium fires it) and the databases are gone.
 */
import { IDBFactory as FakeFactory, IDBKeyRange as FakeKeyRange } from 'fake-indexeddb';
import forceCloseDatabase from 'fake-indexeddb/lib/forceCloseDatabase';

/**
 * The app's database names (src/storage/db.ts `DB_NAME_PREFIX`, which device.ts checks is this).
 * Not imported from there: this module is loaded by the setup file before Dexie, which must
 * find the router as `indexedDB` when it loads.
 */
export const DB_NAME_PREFIX = 'adoption-desk.';

interface RawDatabase {
  connections: IDBDatabase[];
  rawObjectStores: Map<string, { records: { values(): Iterable<{ key: unknown; value: unknown }> } }>;
}

interface FactoryInternals {
  _databases: Map<string, RawDatabase>;
}

// Kept on globalThis: the setup file installs the router before the test's own module graph
// loads, and both must see one registry.
const REGISTRY = Symbol.for('adoption-desk.sim.indexeddb');
const registry = ((globalThis as unknown as Record<symbol, unknown>)[REGISTRY] ??= {
  owners: new Map<string, IDBFactory>(),
  elsewhere: new FakeFactory(),
}) as { owners: Map<string, IDBFactory>; elsewhere: IDBFactory };
const owners = registry.owners;
const elsewhere = registry.elsewhere;

/** The storage a database lives in: the computer that has it, or whose profile it is, or the shared one. */
function factoryOf(name: string): IDBFactory {
  for (const factory of new Set(owners.values()))
    if ((factory as unknown as FactoryInternals)._databases.has(name)) return factory;
  return owners.get(name) ?? elsewhere;
}

/** The `indexedDB` global of the simulation: each database goes to its computer's storage. */
export const routingIndexedDb = {
  open: (name: string, version?: number) => factoryOf(name).open(name, version),
  deleteDatabase: (name: string) => factoryOf(name).deleteDatabase(name),
  cmp: (a: unknown, b: unknown) => elsewhere.cmp(a, b),
  databases: async () => {
    const factories = new Set([elsewhere, ...owners.values()]);
    const lists = await Promise.all([...factories].map((factory) => factory.databases()));
    return lists.flat();
  },
} as unknown as IDBFactory;

/** Installs the router as `indexedDB` (before Dexie loads: the sim project's setup file). */
export function installIndexedDb(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  g.indexedDB = routingIndexedDb;
  g.IDBKeyRange = FakeKeyRange;
}

/** One computer's browser storage. */
export class BrowserStorage {
  readonly factory: IDBFactory = new FakeFactory();

  /** The profile's database lives here. */
  own(profileId: string): void {
    owners.set(`${DB_NAME_PREFIX}${profileId}`, this.factory);
  }

  /** Clearing the site's data: connections closed by force, every database deleted. */
  clearSiteData(): void {
    const databases = (this.factory as unknown as FactoryInternals)._databases;
    for (const [name, database] of [...databases]) {
      for (const connection of [...database.connections]) forceCloseDatabase(connection);
      databases.delete(name);
    }
  }

  /** Whether an open connection of the app (Dexie's backend) is to this computer's storage. */
  serves(connection: IDBDatabase): boolean {
    const raw = (connection as unknown as { _rawDatabase: RawDatabase })._rawDatabase;
    const databases = (this.factory as unknown as FactoryInternals)._databases;
    return databases.get(connection.name) === raw || !databases.has(connection.name);
  }

  /**
   * The rows of one table as stored (null: no such database or table), read from the storage
   * itself rather than through a connection, so that the checks take no part in the app's
   * transactions. Read only where no transaction is under way (the world is settled).
   */
  rows(name: string, table: string): unknown[] | null {
    const database = (this.factory as unknown as FactoryInternals)._databases.get(name);
    const store = database?.rawObjectStores.get(table);
    if (!store) return null;
    return [...store.records.values()].map((record) => record.value);
  }

  /** Every row of every table of every database (for the check that no key is stored). */
  dump(): string {
    const parts: string[] = [];
    for (const [name, database] of (this.factory as unknown as FactoryInternals)._databases)
      for (const table of database.rawObjectStores.keys()) parts.push(JSON.stringify(this.rows(name, table)));
    return parts.join('\n');
  }
}

export function forgetStorages(): void {
  owners.clear();
}
