/**
 * What this computer keeps for a profile: in the browser's IndexedDB the cached animals and
 * lists, the outbox of animals entered and not yet confirmed, the duplicate index over both, and
 * the rows set aside because they could not be read (with the part that shows them); and, for
 * every entry of the outbox, what it writes to the core's safety copy (SafetyCopyWrites; keeping
 * the two copies in step is src/two-copies'). Used by every feature that reads or writes a profile's data.
 */
export { AnimalCache } from './animal-cache';
export {
  closeProfileDb,
  deleteProfileDb,
  openMemoryProfileDb,
  openProfileDb,
  profileDbExists,
  profileDbHere,
  type CachedAnimal,
  type CategoryRow,
  type ProfileDb,
} from './db';
export { describeMatches, DuplicateIndex, duplicateQuestion, type DuplicateMatch } from './duplicates';
export type { EntryLookup, OutboxEntry } from './outbox-records';
export { newOutboxEntry, type OutboxRow, OutboxRowSchema } from './outbox-records';
export { BrowserStorageError, Outbox, type SafetyCopyWrites, safetyEntryOf } from './outbox';
export { SetAsideStore } from './set-aside.svelte';
// Rows set aside are rare: their list loads the first time there is one (not at start-up).
export const loadSetAsideRecords = () => import('./SetAsideRecords.svelte');
