/**
 * The data folder is the staff member's alone (POSIX modes): the folder and the core's folders in
 * it are made 0700, its files 0600 (the safety copy, profiles, the browser host's address). Older
 * versions made the folder with the default mode (0755 under the usual umask: every user of the
 * computer could list it), so opening it tightens what is there: the folder, the files directly in
 * it and the safety copy's folder and files. Links are never followed (lstat; a link is left as it
 * is), and what belongs to someone else is left as it is and reported. On Windows modes do not
 * apply (the folder under %APPDATA% is the user's by its ACL): nothing is done there.
 */
import * as fs from 'node:fs/promises';
import { join } from 'node:path';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** The core's own folders inside the data folder, tightened with their files. */
const CORE_FOLDERS = ['safety-copy'];

/** Makes `folder` (and any parent it needs) with mode 0700; an existing folder is left to `tightenModes`. */
export async function makePrivateFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * Takes group and other permissions off the data folder, the files directly in it, and the core's
 * folders and their files. Returns what could not be tightened (a sentence each, for the log).
 */
export async function tightenModes(dataDir: string, platform: NodeJS.Platform = process.platform): Promise<string[]> {
  if (platform === 'win32') return [];
  const problems: string[] = [];
  const tighten = async (path: string, kind: 'folder' | 'file'): Promise<void> => {
    let stats;
    try {
      stats = await fs.lstat(path);
    } catch {
      return;
    }
    if (kind === 'folder' ? !stats.isDirectory() : !stats.isFile()) return;
    const mode = kind === 'folder' ? PRIVATE_FOLDER_MODE : PRIVATE_FILE_MODE;
    if ((stats.mode & 0o077) === 0) return;
    try {
      await fs.chmod(path, (stats.mode & 0o700) | (mode & 0o700));
    } catch (error) {
      problems.push(`${path} could not be made private (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  };
  // The folder first: from then on no one else reaches what is in it, so nothing can be swapped
  // between the lstat and the chmod of an entry.
  await tighten(dataDir, 'folder');
  for (const folder of ['', ...CORE_FOLDERS]) {
    const path = join(dataDir, folder);
    if (folder) await tighten(path, 'folder');
    let entries;
    try {
      entries = await fs.readdir(path, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) if (entry.isFile()) await tighten(join(path, entry.name), 'file');
  }
  return problems;
}
