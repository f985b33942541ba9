/**
 * `writeFileAtomic` in a folder others may write to (issue 31, item 7): its temporary file has a
 * name no one can foresee, is created exclusively and never through a link. The export through
 * the real main process is in test/electron/main/desktop-channels.test.ts; here the temporary
 * name itself is taken by a link just before the open (as if guessed), which must fail the write
 * and leave the link's target and the link as they were.
 */
import {
  constants,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  renameOver,
  type SettingsFs,
  TEMP_FILE_FLAGS,
  writeFileAtomic,
} from '../../../../electron/core/data-folder/atomic-file';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'adoption-atomic-'));
  folders.push(made);
  return made;
}

/** The real file system, telling each open (path and flags), and running `before` just before it. */
function watchedFs(before: (path: string) => void = () => {}): {
  fs: SettingsFs;
  opens: { path: string; flags: unknown }[];
} {
  const opens: { path: string; flags: unknown }[] = [];
  const open = (async (path: string, flags?: string | number, mode?: number) => {
    opens.push({ path: String(path), flags });
    before(String(path));
    return fs.open(path, flags, mode);
  }) as SettingsFs['open'];
  return { fs: { ...fs, open }, opens };
}

describe('writeFileAtomic', () => {
  it('opens its temporary file exclusively, never through a link, under a random name', async () => {
    const dir = folder();
    const target = join(dir, 'animals.csv');
    const { fs: watched, opens } = watchedFs();
    await writeFileAtomic(watched, target, 'a');
    await writeFileAtomic(watched, target, 'b');
    expect(readFileSync(target, 'utf8')).toBe('b');
    const temps = opens.filter((open) => open.path.includes('.tmp-'));
    expect(temps).toHaveLength(2);
    for (const { path, flags } of temps) {
      expect(path).toMatch(/^.*animals\.csv\.tmp-[0-9a-f]{32}$/);
      expect(path).not.toContain(String(process.pid));
      expect(flags).toBe(TEMP_FILE_FLAGS);
    }
    expect(temps[0]?.path).not.toBe(temps[1]?.path);
    expect(TEMP_FILE_FLAGS & constants.O_CREAT).toBe(constants.O_CREAT);
    expect(TEMP_FILE_FLAGS & constants.O_EXCL).toBe(constants.O_EXCL);
    if (constants.O_NOFOLLOW !== undefined) expect(TEMP_FILE_FLAGS & constants.O_NOFOLLOW).toBe(constants.O_NOFOLLOW);
    expect(readdirSync(dir)).toEqual(['animals.csv']);
  });

  // Symbolic links need a privilege on Windows; the attack is another user's link in a shared POSIX folder.
  it.skipIf(process.platform === 'win32')(
    'fails, and writes nothing anywhere, when a link takes the temporary name first (to a file, or to nothing)',
    async () => {
      for (const kind of ['to a file', 'dangling'] as const) {
        const dir = folder();
        const target = join(dir, 'animals.csv');
        writeFileSync(target, 'the export before\n');
        const victim = join(dir, kind === 'to a file' ? 'bashrc' : 'not-there-yet');
        if (kind === 'to a file') writeFileSync(victim, 'mine\n');
        let planted = '';
        const { fs: racing } = watchedFs((path) => {
          if (!path.includes('.tmp-')) return;
          planted = path;
          symlinkSync(victim, path);
        });
        await expect(writeFileAtomic(racing, target, 'name\nRex\n')).rejects.toMatchObject({ code: 'EEXIST' });
        expect(readFileSync(target, 'utf8')).toBe('the export before\n');
        if (kind === 'to a file') expect(readFileSync(victim, 'utf8')).toBe('mine\n');
        else expect(() => lstatSync(victim)).toThrow(/ENOENT/);
        // another's link is not ours to remove
        expect(readlinkSync(planted)).toBe(victim);
      }
    },
  );
});
if (process.platform === 'win32')
  console.log('atomic-file: the planted-link case skipped: symbolic links need a privilege on Windows');

describe('renaming over a file another process holds open (Windows)', () => {
  const busy = (code: string) => Object.assign(new Error(`${code}: operation not permitted, rename`), { code });

  it('tries again while Windows says the target is busy, then succeeds', async () => {
    const waits: number[] = [];
    let calls = 0;
    const flaky = {
      rename: async () => {
        calls += 1;
        if (calls <= 3) throw busy(['EPERM', 'EBUSY', 'EACCES'][calls - 1]!);
      },
    };
    await renameOver(flaky, 'a.tmp', 'a', { platform: 'win32', wait: async (ms) => void waits.push(ms) });
    expect(calls).toBe(4);
    expect(waits).toEqual([10, 20, 30]);
  });

  it('gives the error after about two seconds, and at once elsewhere or for other errors', async () => {
    const waits: number[] = [];
    const alwaysBusy = { rename: async () => Promise.reject(busy('EPERM')) };
    await expect(
      renameOver(alwaysBusy, 'a.tmp', 'a', { platform: 'win32', wait: async (ms) => void waits.push(ms) }),
    ).rejects.toMatchObject({ code: 'EPERM' });
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(2_000);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThan(2_200);
    const never = async () => {
      throw new Error('no wait expected');
    };
    await expect(renameOver(alwaysBusy, 'a.tmp', 'a', { platform: 'linux', wait: never })).rejects.toMatchObject({
      code: 'EPERM',
    });
    const missing = { rename: async () => Promise.reject(busy('ENOENT')) };
    await expect(renameOver(missing, 'a.tmp', 'a', { platform: 'win32', wait: never })).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
