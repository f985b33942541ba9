/**
 * Is a machine-wide settings file on Linux or macOS really the administrator's? The same rule as
 * OpenSSH's `StrictModes` (`safe_path` in misc.c): the file and every folder above it, up to `/`,
 * must be owned by root and writable by no one else (neither its group nor others). Otherwise a
 * standard user could have planted or changed it, and addresses from it would send staff's API key
 * to the planter's server. One allowance: a folder with the sticky bit (as `/tmp`) may be writable
 * by all, since no one can then rename or remove what another user owns in it.
 *
 * The file is opened once and checked through that handle (`fstat`), and read from it, so it cannot
 * be swapped between the check and the read.
 */
import type { Stats } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { dirname } from 'node:path';

/** The parts of `node:fs/promises` the check uses. */
export type OwnershipFs = Pick<typeof nodeFs, 'open' | 'lstat' | 'realpath'>;

export interface PosixOwnership {
  /** Owners an administrator's file may have: root (0); tests add the uid they run as. */
  trustedUids: readonly number[];
  fs?: OwnershipFs;
}

export const ROOT_ONLY: PosixOwnership = { trustedUids: [0] };

const GROUP_OR_OTHER_WRITE = 0o022;
const STICKY = 0o1000;

/** Why `stats` (of `path`) is not safe, or null when it is. */
function unsafeBecause(path: string, stats: Stats, trusted: readonly number[], isFile: boolean): string | null {
  if (!trusted.includes(stats.uid)) return `${path} belongs to user ${stats.uid}, not to root`;
  if ((stats.mode & GROUP_OR_OTHER_WRITE) !== 0 && (isFile || (stats.mode & STICKY) === 0))
    return `${path} may be changed by users other than root (mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')})`;
  return null;
}

export type SafeRead = { ok: true; text: string } | { ok: false; missing: true } | { ok: false; refused: string };

/**
 * Reads `path` if it and every folder above it pass the check. A missing file is `missing`; one
 * that fails the check is `refused` with the reason (the file is then not read).
 */
export async function readIfAdministrators(path: string, options: PosixOwnership = ROOT_ONLY): Promise<SafeRead> {
  const fs = options.fs ?? nodeFs;
  let real: string;
  try {
    real = await fs.realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, missing: true };
    return { ok: false, refused: `${path} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const handle = await fs.open(real, 'r').catch((error: NodeJS.ErrnoException) => error);
  if (handle instanceof Error)
    return handle.code === 'ENOENT'
      ? { ok: false, missing: true }
      : { ok: false, refused: `${path} could not be read (${handle.code ?? 'error'})` };
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, refused: `${path} is not a file` };
    const fileProblem = unsafeBecause(path, stats, options.trustedUids, true);
    if (fileProblem) return { ok: false, refused: fileProblem };
    for (let folder = dirname(real); ; folder = dirname(folder)) {
      const folderProblem = unsafeBecause(folder, await fs.lstat(folder), options.trustedUids, false);
      if (folderProblem) return { ok: false, refused: folderProblem };
      if (dirname(folder) === folder) break;
    }
    return { ok: true, text: await handle.readFile('utf8') };
  } finally {
    await handle.close();
  }
}

/** The names in a folder that passes the same check (the folder itself and all above it), sorted. */
export async function listIfAdministrators(
  folder: string,
  options: PosixOwnership = ROOT_ONLY,
  readdir: (path: string) => Promise<string[]> = (path) => nodeFs.readdir(path),
): Promise<{ ok: true; names: string[] } | { ok: false; missing: true } | { ok: false; refused: string }> {
  const fs = options.fs ?? nodeFs;
  let real: string;
  try {
    real = await fs.realpath(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, missing: true };
    return { ok: false, refused: `${folder} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  for (let current = real; ; current = dirname(current)) {
    const problem = unsafeBecause(
      current === real ? folder : current,
      await fs.lstat(current),
      options.trustedUids,
      false,
    );
    if (problem) return { ok: false, refused: problem };
    if (dirname(current) === current) break;
  }
  return { ok: true, names: (await readdir(real)).sort() };
}
