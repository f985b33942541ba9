/**
 * The safety copy: the core's journal of every animal staff entered, one file per profile in the
 * data folder, kept on disk before the form says "saved", so that what the browser's storage
 * loses can be put back. Its channels, and the steps written around every creation sent, are safety-copy-channels.ts.
 * Used by app-core.ts.
 */
export {
  type RecoveredEntry,
  type RecoverReport,
  SafetyCopy,
  type SafetyCopyOptions,
  type SafetyCopyRead,
} from './safety-copy';
export { type JournalFs, nodeJournalFs } from './journal-file';
export { safetyCopyChannels, type SafetyCopyChannels } from './safety-copy-channels';
