/**
 * The app's data folder on this computer: where it is, opening it (made private, locked for one
 * process), and files written there atomically.
 */
export { defaultDataDir } from './app-data-dir';
export { fileTimestamp, nodeSettingsFs, syncFolder, writeFileAtomic, type SettingsFs } from './atomic-file';
export { DataFolderInUseError, LOCK_FILE, type ProcessProbe } from './folder-lock';
export { type DataFolder, openDataFolder, type OpenDataFolderOptions } from './open-data-folder';
export { makePrivateFolder } from './private-modes';
