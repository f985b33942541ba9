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

const SECRET = 'Zq9x-launch-secret-43-characters-long-abcde';
const LINK = `http://ad-abc.localhost:4321/?launch=${SECRET}`;

describe('opening the demo in a browser', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it('writes a page only this user can read, which forwards to the link', () => {
    const parent = mkdtempSync(join(tmpdir(), 'adoption-open-test-'));
    folders.push(parent);
    const file = writeLaunchFile(LINK, parent);
    expect(statSync(file.path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file.path)).mode & 0o777).toBe(0o700);
    const page = readFileSync(file.path, 'utf8');
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=${LINK}">`);
    expect(file.fileUrl).toBe(`file://${file.path}`);
    file.remove();
    expect(() => statSync(dirname(file.path))).toThrow();
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
