/** The app's data folder on this computer: where it is, and files written there atomically. */
export { defaultDataDir } from './app-data-dir';
export { fileTimestamp, nodeSettingsFs, syncFolder, writeFileAtomic, type SettingsFs } from './atomic-file';
