/** fake-indexeddb's forced close (exported by the package, typed here: it ships no declaration for it). */
declare module 'fake-indexeddb/lib/forceCloseDatabase' {
  export default function forceCloseDatabase(db: IDBDatabase): void;
}
