/**
 * `npm run demo` opens its one-time link without putting it on a command line (issue 22): other
 * users of the computer see every process's arguments (`ps`). The browser gets a file:// page
 * instead, readable by this user only, which forwards to the link.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { openInBrowser, writeLaunchFile } from '../../scripts/lib/open-browser';
import { onlyOn } from '../support/platform';

/** On Windows a file's privacy is the ACL of the user's own TEMP folder, not a mode (every file reads 0666). */
const posixModes = onlyOn(['linux', 'darwin'], 'POSIX modes 0600/0700 of real files (Windows has none)');

const SECRET = 'Zq9x-launch-secret-43-characters-long-abcde';
const LINK = `http://ad-abc.localhost:4321/?launch=${SECRET}`;

describe('opening the demo in a browser', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('writes a page which forwards to the link, given as a file:// URL, and removes it', () => {
    const parent = mkdtempSync(join(tmpdir(), 'adoption-open-test-'));
    folders.push(parent);
    const file = writeLaunchFile(LINK, parent);
    const page = readFileSync(file.path, 'utf8');
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${LINK}">`);
    // file:///tmp/… here, file:///C:/Users/… on Windows
    expect(file.fileUrl).toMatch(/^file:\/\/\//);
    expect(fileURLToPath(file.fileUrl)).toBe(file.path);
    file.remove();
    expect(() => statSync(dirname(file.path))).toThrow();
  });

  it.skipIf(posixModes)('writes it where only this user can read it', () => {
    const parent = mkdtempSync(join(tmpdir(), 'adoption-open-test-'));
    folders.push(parent);
    const file = writeLaunchFile(LINK, parent);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file.path)).mode & 0o777).toBe(0o700);
    file.remove();
  });

  it.each(['linux', 'darwin', 'win32'] as const)('on %s, puts no secret on the command line', (platform) => {
    const started: Array<{ command: string; args: string[] }> = [];
    const opened = openInBrowser(
      LINK,
      { DISPLAY: ':0' },
      (command, args) => {
        started.push({ command, args });
        return true;
      },
      platform,
      // a browser on PATH, whatever this machine has (on Windows there is not even the `sh` that looks)
      () => true,
    );
    expect(opened).not.toBeNull();
    expect(started.length).toBeGreaterThan(0);
    for (const { command, args } of started) {
      expect([command, ...args].join(' ')).not.toContain(SECRET);
      const fileUrl = args.find((arg) => arg.startsWith('file://'));
      expect(fileUrl).toBeDefined();
      const path = fileURLToPath(fileUrl ?? '');
      folders.push(dirname(path));
      expect(readFileSync(path, 'utf8')).toContain(LINK);
    }
  });
});
