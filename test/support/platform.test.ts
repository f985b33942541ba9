/** test/support/platform.ts: a test that needs one system is skipped elsewhere with its reason printed. */
import { describe, expect, it } from 'vitest';
import { onlyOn } from './platform';

function recorder() {
  const lines: string[] = [];
  return { lines, log: (line: string) => lines.push(line) };
}

describe('onlyOn', () => {
  it('runs the test on a system it names, and prints nothing', () => {
    const { lines, log } = recorder();
    expect(onlyOn(['linux'], 'a Debian package', { platform: 'linux', log })).toBe(false);
    expect(onlyOn(['linux', 'darwin'], 'a POSIX shell', { platform: 'darwin', log })).toBe(false);
    expect(lines).toEqual([]);
  });

  it('skips it on any other, naming the system, this file and the reason, once per reason', () => {
    const { lines, log } = recorder();
    expect(onlyOn(['linux', 'darwin'], 'runs a POSIX sh script', { platform: 'win32', log })).toBe(true);
    expect(onlyOn(['linux', 'darwin'], 'runs a POSIX sh script', { platform: 'win32', log })).toBe(true);
    expect(onlyOn(['linux'], 'needs nginx (Debian)', { platform: 'darwin', log })).toBe(true);
    expect(lines).toEqual([
      '[skipped on win32] test/support/platform.test.ts: runs a POSIX sh script',
      '[skipped on darwin] test/support/platform.test.ts: needs nginx (Debian)',
    ]);
  });

  it('decides for the system it runs on by default', () => {
    const { lines, log } = recorder();
    expect(onlyOn([process.platform], 'never skipped', { log })).toBe(false);
    const elsewhere = process.platform === 'win32' ? 'linux' : 'win32';
    expect(onlyOn([elsewhere], 'skipped here', { log, file: 'test/x.test.ts' })).toBe(true);
    expect(lines).toEqual([`[skipped on ${process.platform}] test/x.test.ts: skipped here`]);
  });

  it('wants at least one system and a reason', () => {
    expect(() => onlyOn([], 'a reason')).toThrow('name at least one system');
    expect(() => onlyOn(['linux'], '  ')).toThrow('give the reason');
  });
});
