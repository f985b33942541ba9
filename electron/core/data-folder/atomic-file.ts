/** Small file helpers for the core's settings files: atomic replace, setting a bad file aside. */
import * as nodeFs from 'node:fs/promises';
import { dirname } from 'node:path';

/** The part of `node:fs/promises` the settings files use (tests inject failing versions). */
export type SettingsFs = Pick<typeof nodeFs, 'readFile' | 'open' | 'rename' | 'mkdir' | 'rm' | 'copyFile'>;

export const nodeSettingsFs: SettingsFs = nodeFs;

let tempCounter = 0;

/**
 * Replaces `path` with `text` atomically: writes a temp file beside it, fsyncs it, renames it
 * over `path`, then fsyncs the folder where the platform allows. On failure the temp file is
 * removed and `path` is untouched.
 */
export async function writeFileAtomic(fs: SettingsFs, path: string, text: string): Promise<void> {
  tempCounter += 1;
  const temp = `${path}.tmp-${process.pid}-${tempCounter}`;
  try {
    const handle = await fs.open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(fs, dirname(path));
}

/** Fsyncs a folder, so that a file just created or renamed in it is on disk too (a no-op where unsupported). */
export async function syncFolder(fs: Pick<SettingsFs, 'open'>, folder: string): Promise<void> {
  try {
    const handle = await fs.open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported everywhere (Windows); the rename itself is still atomic.
  }
}

/** A file-name-safe timestamp such as `2026-11-22T02-54-56-123Z`. */
export function fileTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[:.]/g, '-');
}
