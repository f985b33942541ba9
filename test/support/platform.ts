/**
 * Tests that truly need one operating system (a POSIX shell script under test, POSIX owners and
 * modes of real files, a Debian package) are skipped elsewhere WITH their reason printed, since
 * vitest's `skipIf` prints none. The unit suites run on Linux here and on macOS and Windows in
 * .github/workflows/ci.yml: there, the log then says what was not run and why.
 *
 *   const posixShell = onlyOn(['linux', 'darwin'], 'runs a POSIX sh script (/bin/sh)');
 *   describe.skipIf(posixShell)('scripts/use-node.sh', () => { … });
 *
 * prints, on Windows only and once per file and reason:
 *
 *   [skipped on win32] test/scripts/use-node.test.ts: runs a POSIX sh script (/bin/sh)
 */
import { relative, resolve, sep } from 'node:path';
import { expect } from 'vitest';

export interface OnlyOnOptions {
  /** The system to decide for (tests of this helper); this process's own by default. */
  platform?: NodeJS.Platform;
  /** The test file to name; the one vitest is running by default. */
  file?: string;
  /** Where the line goes (tests of this helper); console.log by default. */
  log?: (line: string) => void;
}

const ROOT = resolve(import.meta.dirname, '../..');
const printed = new Set<string>();

/** The test file vitest is collecting or running, relative to the project, with `/` on every system. */
function currentTestFile(): string {
  const path = expect.getState().testPath;
  if (!path) return '(outside a test file)';
  return relative(ROOT, path).split(sep).join('/');
}

/**
 * True where the test must be skipped, i.e. on a system not in `platforms` (for `describe.skipIf`
 * and `it.skipIf`); there it prints `[skipped on <platform>] <file>: <reason>`, once.
 */
export function onlyOn(platforms: readonly NodeJS.Platform[], reason: string, options: OnlyOnOptions = {}): boolean {
  if (platforms.length === 0) throw new Error('onlyOn: name at least one system the test runs on');
  if (reason.trim() === '') throw new Error('onlyOn: give the reason the test is skipped elsewhere');
  const platform = options.platform ?? process.platform;
  if (platforms.includes(platform)) return false;
  const line = `[skipped on ${platform}] ${options.file ?? currentTestFile()}: ${reason}`;
  if (!printed.has(line)) {
    printed.add(line);
    (options.log ?? console.log)(line);
  }
  return true;
}
