/**
 * The README's quick-start commands start with `sh scripts/install-debian-packages.sh`, which must
 * work as root without sudo (containers: no sudo there) and as a user with sudo. Run here with
 * stand-ins for `id`, `sudo` and `apt-get` on PATH that record how they were called.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onlyOn } from '../support/platform';

const SCRIPT = resolve(import.meta.dirname, '../../scripts/install-debian-packages.sh');
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function run(uid: number, withSudo: boolean) {
  const bin = mkdtempSync(join(tmpdir(), 'adoption-install-'));
  dirs.push(bin);
  const log = join(bin, 'calls.log');
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  stub('id', `echo ${uid}`);
  stub('apt-get', `echo "apt-get $*" >> '${log}'`);
  stub('env', `shift; "$@"`); // `env VAR=value cmd …` → cmd …
  if (withSudo) stub('sudo', `echo "sudo" >> '${log}'; "$@"`);
  // PATH holds the stand-ins only: a real sudo elsewhere must not be found.
  const result = spawnSync('/bin/sh', [SCRIPT], { env: { PATH: bin }, encoding: 'utf8' });
  let calls: string[];
  try {
    calls = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    calls = []; // apt-get and sudo were never called
  }
  return { status: result.status, stderr: result.stderr, calls };
}

const posixShell = onlyOn(
  ['linux', 'darwin'],
  'runs a POSIX sh script, with stand-ins in sh, in /bin/sh (not on Windows)',
);

describe.skipIf(posixShell)('scripts/install-debian-packages.sh', () => {
  it('as root, runs apt-get itself (no sudo needed)', () => {
    const { status, calls } = run(0, false);
    expect(status).toBe(0);
    expect(calls[0]).toBe('apt-get update -q');
    expect(calls[1]).toMatch(/^apt-get install -y -q --no-install-recommends /);
    for (const name of [
      'chromium',
      'libsecret-1-dev',
      'build-essential',
      'python3',
      'gnome-keyring',
      'nginx',
      'tinyproxy',
    ]) {
      expect(calls[1]?.split(' '), name).toContain(name);
    }
    expect(calls).toHaveLength(2);
  });

  it('as a user with sudo, runs apt-get through sudo', () => {
    const { status, calls } = run(1000, true);
    expect(status).toBe(0);
    expect(calls).toEqual(['sudo', 'apt-get update -q', 'sudo', expect.stringMatching(/^apt-get install -y -q /)]);
  });

  it('as a user without sudo, says what to do and installs nothing', () => {
    const { status, stderr, calls } = run(1000, false);
    expect(status).toBe(1);
    expect(stderr).toMatch(/Run this as root, or install sudo/);
    expect(calls).toEqual([]);
  });
});
