/**
 * The two copies of a profile's queue, kept in step: the window's outbox in IndexedDB (src/storage,
 * the working copy every window reads) and the core's safety copy on this computer's disk
 * (electron/core/safety-copy, fsynced before the form says "saved"). Here: the window's port to the
 * core's copy (safety-copy-port.ts), bringing the two together on start and after the browser's storage
 * failed (restore.ts: an entry open in the safety copy and missing from IndexedDB is put back; one sent
 * here is settled there; one kept only here is kept there too), one profile's storage as staff see it,
 * with the recovery to a database in memory when the browser cannot open one (TwoCopies), and what
 * Diagnostics shows of it (StorageHealthStore). Used by the app root.
 */
export { type SafetyCopyPort, type SafetyCopyRead, SafetyCopyError, safetyCopyOf } from './safety-copy-port';
export { PERSISTENCE_TEXT, type StorageEvent, StorageHealthStore } from './storage-health.svelte';
export { type StorageNotice, TwoCopies, type TwoCopiesHooks } from './two-copies.svelte';
