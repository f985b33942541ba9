/**
 * No folder of the product holds more than 15 files (issue 32): past that a newcomer scans a list
 * instead of reading a folder's name, so a folder that grows is split by concept. This counts the
 * files directly in each folder under src/, electron/ and scripts/ (the code, the message
 * catalogues, the resources), not those of its subfolders. test/ is not counted: its folders follow
 * the suites (e2e specs, the local service's routes).
 */
import { readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
export const MAX_FILES = 15;
const FOLDERS = ['src', 'electron', 'scripts'];

/** Each folder under `dir` (itself included) holding more than `max` files, with its count. */
export function crowdedFolders(dir: string, max = MAX_FILES): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).length;
  const below = entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => crowdedFolders(join(dir, entry.name), max));
  // relative paths with `/` on every system (Windows gives `src\shared\…`)
  const name = relative(ROOT, dir).split(sep).join('/');
  return files > max ? [`${name}: ${files} files`, ...below] : below;
}

describe('folder size', () => {
  it(`no folder of src/, electron/ or scripts/ holds more than ${MAX_FILES} files`, () => {
    expect(FOLDERS.flatMap((folder) => crowdedFolders(join(ROOT, folder)))).toEqual([]);
  });
});
