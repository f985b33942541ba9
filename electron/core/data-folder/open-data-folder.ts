/**
 * Where the core opens the app's data folder (createAppCore, first of all): made if missing
 * (0700), made the staff member's alone (private-modes.ts), and locked for this process
 * (folder-lock.ts), so that no second process (the desktop app beside `npm run host`) works on it
 * at the same time. The lock is let go by `close()` (the core's dispose) or when the process ends.
 */
import { t } from '../../../src/shared/i18n';
import { DataFolderInUseError, type FolderLock, lockDataFolder, type ProcessProbe } from './folder-lock';
import { makePrivateFolder, tightenModes } from './private-modes';

export interface DataFolder {
  readonly path: string;
  /** Lets the folder go (the lock); safe to call twice. */
  close(): Promise<void>;
}

export interface OpenDataFolderOptions {
  platform?: NodeJS.Platform;
  /** Told what could not be tightened (a file of someone else's). */
  logError?: (message: string) => void;
  probe?: ProcessProbe;
}

export async function openDataFolder(dataDir: string, options: OpenDataFolderOptions = {}): Promise<DataFolder> {
  let lock: FolderLock;
  try {
    await makePrivateFolder(dataDir);
    for (const problem of await tightenModes(dataDir, options.platform)) options.logError?.(`data folder: ${problem}`);
    lock = await lockDataFolder(dataDir, options.probe ? { probe: options.probe } : {});
  } catch (error) {
    if (error instanceof DataFolderInUseError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    // A full disk: even the small lock file cannot be written. Staff are told so, and that what
    // is saved is safe (nothing is deleted to make room).
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      throw new Error(t('core.dataFolderDiskFull', { dataDir }), { cause: error });
    }
    const why = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new Error(t('core.dataFolderUnusable', { dataDir, why }), { cause: error });
  }
  return { path: dataDir, close: () => lock.release() };
}
