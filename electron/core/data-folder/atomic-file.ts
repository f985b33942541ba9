/** Small file helpers for the core's settings files and exports: atomic replace, setting a bad file aside. */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { dirname } from 'node:path';

/** The part of `node:fs/promises` the settings files use (tests inject failing versions). */
export type SettingsFs = Pick<typeof nodeFs, 'readFile' | 'open' | 'rename' | 'mkdir' | 'rm' | 'copyFile'>;

export const nodeSettingsFs: SettingsFs = nodeFs;

/**
 * How the temporary file is opened: created here and now or not at all (O_CREAT | O_EXCL: an
 * existing file, or a symbolic link even to nothing, at that name fails with EEXIST, never
 * written through), and where the system has it O_NOFOLLOW too (fs.constants has it on Linux and
 * macOS, not on Windows). Only O_CREAT, O_EXCL and O_WRONLY are needed on Windows, and libuv maps
 * them there (Node's fs docs, "File open constants").
 */
const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;
export const TEMP_FILE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0);

/** A temporary name beside `path` no one can foresee: 16 random bytes (a planted link never sits there). */
export function tempNameFor(path: string): string {
  return `${path}.tmp-${randomBytes(16).toString('hex')}`;
}

/**
 * Replaces `path` with `text` atomically: writes a new temporary file beside it (a random name,
 * exclusively created, no link followed: the folder may be one others can write to, such as a
 * team folder an export goes to), fsyncs it, renames it over `path`, then fsyncs the folder where
 * the platform allows. On failure the temporary file, if this call made it, is removed and `path`
 * is untouched.
 */
export async function writeFileAtomic(fs: SettingsFs, path: string, text: string): Promise<void> {
  const temp = tempNameFor(path);
  let created = false;
  try {
    const handle = await fs.open(temp, TEMP_FILE_FLAGS, 0o600);
    created = true;
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await renameOver(fs, temp, path);
  } catch (error) {
    if (created) await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(fs, dirname(path));
}

/** Errors of a rename over a file that another process holds open on Windows for a moment. */
const BUSY = new Set(['EPERM', 'EACCES', 'EBUSY']);

/**
 * Renames `from` over `to`. On Windows the rename (MoveFileExW with MOVEFILE_REPLACE_EXISTING) fails
 * with EPERM, EACCES or EBUSY while another process holds `to` open without sharing its deletion: an
 * antivirus scan, the search indexer, a backup, for a moment. There it is tried again for about two
 * seconds (10 ms more each time, as graceful-fs backs off: polyfills.js, win32 `rename`) before the
 * error is given; elsewhere the first answer is final.
 */
export async function renameOver(
  fs: Pick<SettingsFs, 'rename'>,
  from: string,
  to: string,
  options: { platform?: NodeJS.Platform; wait?: (ms: number) => Promise<void> } = {},
): Promise<void> {
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let waited = 0;
  for (let backoff = 10; ; backoff = Math.min(backoff + 10, 100)) {
    try {
      await fs.rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if ((options.platform ?? process.platform) !== 'win32' || !BUSY.has(code) || waited >= 2_000) throw error;
      await wait(backoff);
      waited += backoff;
    }
  }
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
