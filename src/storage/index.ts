/**
 * What this computer keeps for a profile: in the browser's IndexedDB the cached animals and
 * lists, the outbox of animals entered and not yet confirmed, the duplicate index over both, and
 * the rows set aside because they could not be read (with the part that shows them); and, for
 * every entry of the outbox, the core's safety copy, from which what the browser loses is
 * restored (ProfileStorage). Used by every feature that reads or writes a profile's data.
 */
export { AnimalCache } from './animal-cache';
export {
  closeProfileDb,
  deleteProfileDb,
  openMemoryProfileDb,
  openProfileDb,
  profileDbExists,
  type CachedAnimal,
  type CategoryRow,
  type ProfileDb,
} from './db';
export { describeMatches, DuplicateIndex, duplicateQuestion, type DuplicateMatch } from './duplicates';
export type { EntryLookup, OutboxEntry } from './outbox-records';
export { BrowserStorageError, Outbox } from './outbox';
export { type ProfileStorageHooks, ProfileStorage, type StorageNotice } from './profile-storage.svelte';
export { type SafetyCopyPort, safetyCopyOf } from './safety-copy';
export { PERSISTENCE_TEXT, type StorageEvent, StorageHealthStore } from './storage-health.svelte';
export { SetAsideStore } from './set-aside.svelte';
export { default as SetAsideRecords } from './SetAsideRecords.svelte';
