/**
 * The data folder's lock (issue 31, item 6) on its own: who holds it, when a lock is stale (its
 * process gone, a zombie, or another process that got the same id), a takeover by two starters
 * at once, a file that is no lock, and letting it go. Processes are scripted here (a probe), and
 * real ones are looked at through the system's own probe (/proc on Linux, ps on macOS,
 * PowerShell on Windows: each CI runner checks its own). The whole path, with host processes and
 * kill -9, is in data-folder.test.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DataFolderInUseError,
  type FolderLock,
  holderRunning,
  LOCK_FILE,
  lockDataFolder,
  type LockRecord,
  parsePsLine,
  type ProcessProbe,
  type ProcessState,
  START_SLACK_MS,
  systemProcessProbe,
} from '../../../../electron/core/data-folder/folder-lock';

const folders: string[] = [];
const locks: FolderLock[] = [];
afterEach(async () => {
  for (const lock of locks.splice(0)) await lock.release();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'adoption-lock-'));
  folders.push(made);
  return made;
}

const NOW = Date.UTC(2026, 10, 26, 9, 0, 0);
/** A scripted computer: this process, and what each other id is. */
function scripted(others: Record<number, ProcessState>): ProcessProbe {
  return {
    self: async () => ({ pid: process.pid, startedAt: NOW, linuxStart: null }),
    inspect: async (pid) => others[pid] ?? { running: false },
  };
}
const noWait = { wait: async () => {} };

/** A lock file as another process left it. */
function plant(dir: string, record: Partial<LockRecord> & { pid: number }): string {
  const text = `${JSON.stringify({ version: 1, startedAt: NOW - 60_000, linuxStart: null, nonce: 'n0', ...record })}\n`;
  writeFileSync(join(dir, LOCK_FILE), text);
  return text;
}

async function take(dir: string, probe: ProcessProbe): Promise<FolderLock> {
  const lock = await lockDataFolder(dir, { probe, ...noWait });
  locks.push(lock);
  return lock;
}

const refusal = (dir: string, probe: ProcessProbe) =>
  lockDataFolder(dir, { probe, ...noWait }).then(
    () => null,
    (error: unknown) => error,
  );

describe('the data folder lock', () => {
  it('writes who holds it (id, start, a nonce) in a 0600 file, and lets it go', async () => {
    const dir = folder();
    const lock = await take(dir, scripted({}));
    const record = JSON.parse(readFileSync(lock.path, 'utf8')) as LockRecord;
    expect(record).toMatchObject({ version: 1, pid: process.pid, startedAt: NOW, linuxStart: null });
    expect(record.nonce).toMatch(/^[0-9a-f]{32}$/);
    if (process.platform !== 'win32') expect((await import('node:fs')).statSync(lock.path).mode & 0o777).toBe(0o600);
    // nothing else left beside it (the draft it was made from is gone)
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
    await lock.release();
    await lock.release();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('refuses while the holder runs: same start (exact on Linux, within the slack elsewhere), or a start the system will not tell', async () => {
    const dir = folder();
    plant(dir, { pid: 4242, linuxStart: 'boot/1234' });
    const error = await refusal(dir, scripted({ 4242: { running: true, linuxStart: 'boot/1234', startedAt: null } }));
    expect(error).toBeInstanceOf(DataFolderInUseError);
    expect((error as Error).message).toBe(
      `Another Adoption Desk is already using the data folder ${dir} (process 4242): the desktop app or \`npm run host\`. Two at once could each erase from disk animals the other saved, so this one did not start. Close the other one, then start again.`,
    );
    plant(dir, { pid: 4242, startedAt: NOW - 60_000 });
    const near = NOW - 60_000 + START_SLACK_MS - 1;
    expect(await refusal(dir, scripted({ 4242: { running: true, linuxStart: null, startedAt: near } }))).toBeInstanceOf(
      DataFolderInUseError,
    );
    expect(await refusal(dir, scripted({ 4242: { running: true, linuxStart: null, startedAt: null } }))).toBeInstanceOf(
      DataFolderInUseError,
    );
    // the holder's file is left as it was
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: 4242, nonce: 'n0' });
  });

  it.each([
    ['its process is gone (or a zombie)', { running: false } as ProcessState, {}],
    [
      'its id now belongs to another process (Linux: another start in clock ticks)',
      { running: true, linuxStart: 'boot/9999', startedAt: null } as ProcessState,
      { linuxStart: 'boot/1234' },
    ],
    [
      'its id now belongs to another process (elsewhere: started an hour later)',
      { running: true, linuxStart: null, startedAt: NOW - 60_000 + 3_600_000 } as ProcessState,
      {},
    ],
  ])('takes over a lock when %s', async (_why, state, record) => {
    const dir = folder();
    plant(dir, { pid: 4242, ...record });
    const lock = await take(dir, scripted({ 4242: state }));
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  });

  it('takes over a lock of an earlier process that had this id, but refuses one of its own (a second core here)', async () => {
    const dir = folder();
    plant(dir, { pid: process.pid, nonce: 'an-earlier-process' });
    const lock = await take(dir, scripted({}));
    const error = await refusal(dir, scripted({}));
    expect(error).toBeInstanceOf(DataFolderInUseError);
    expect((error as DataFolderInUseError).pid).toBe(process.pid);
    await lock.release();
    await take(dir, scripted({}));
  });

  it('takes a file that is no lock (damage, a hand edit) after looking again', async () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), 'garbage');
    const waits: number[] = [];
    const lock = await lockDataFolder(dir, { probe: scripted({}), wait: async (ms) => void waits.push(ms) });
    locks.push(lock);
    expect(waits).toEqual([100, 100, 100]);
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('two starters taking over one stale lock at once: exactly one gets the folder (200 rounds)', async () => {
    for (let round = 0; round < 200; round += 1) {
      const dir = folder();
      plant(dir, { pid: 4242 });
      const probe = scripted({ 4242: { running: false } });
      const outcomes = await Promise.allSettled([
        lockDataFolder(dir, { probe, ...noWait }),
        lockDataFolder(dir, { probe, ...noWait }),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((outcome) => (outcome as PromiseRejectedResult).reason)).toEqual([
        expect.any(DataFolderInUseError),
      ]);
      const winner = (won[0] as PromiseFulfilledResult<FolderLock>).value;
      // the file is the winner's, whole, and nothing else is left in the folder
      expect(readdirSync(dir)).toEqual([LOCK_FILE]);
      await winner.release();
      expect(readdirSync(dir)).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('letting go leaves a lock that is no longer its own', async () => {
    const dir = folder();
    const lock = await take(dir, scripted({}));
    const other = plant(dir, { pid: 4242, nonce: 'another' });
    await lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(other);
  });
});

describe('the system probe (this platform)', () => {
  it('tells a running process (with its start) from one killed, and a reused id from the holder', async () => {
    const probe = systemProcessProbe();
    // the child says when it started, as a holder would write it in its lock
    const child = spawn(
      process.execPath,
      ['-e', 'console.log(Math.round(Date.now() - process.uptime() * 1000)); setInterval(() => {}, 1000)'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    try {
      const startedAt = await new Promise<number>((done) =>
        child.stdout?.once('data', (chunk: Buffer) => done(Number(String(chunk)))),
      );
      const pid = child.pid ?? 0;
      const state = await probe.inspect(pid);
      expect(state.running).toBe(true);
      const own = await systemProcessProbe().self();
      const record = (at: number): LockRecord => ({
        version: 1,
        pid,
        startedAt: at,
        // a Linux holder writes its exact marker: the one the system gives for its id now
        linuxStart: state.running ? state.linuxStart : null,
        nonce: 'child',
      });
      expect(await holderRunning(record(startedAt), probe)).toBe(true);
      if (process.platform === 'linux') {
        expect(own.linuxStart).toMatch(/^[0-9a-f-]+\/\d+$/);
        expect(await holderRunning({ ...record(startedAt), linuxStart: `${own.linuxStart}0` }, probe)).toBe(false);
      } else {
        expect(state.running && state.startedAt !== null && Math.abs(state.startedAt - startedAt)).toBeLessThan(
          START_SLACK_MS,
        );
        expect(await holderRunning(record(startedAt - 3_600_000), probe)).toBe(false);
      }
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    expect(await probe.inspect(child.pid ?? 0)).toEqual({ running: false });
  }, 60_000);

  it('reads ps lines as macOS prints them (C locale, UTC), zombies included', () => {
    expect(parsePsLine('Ss   Thu Nov 26 09:13:51 2026\n')).toEqual({
      zombie: false,
      startedAt: Date.UTC(2026, 10, 26, 9, 13, 51),
    });
    expect(parsePsLine('Z+   Mon Feb  2 01:02:03 2026')).toEqual({
      zombie: true,
      startedAt: Date.UTC(2026, 1, 2, 1, 2, 3),
    });
    expect(parsePsLine('')).toBeNull();
    expect(parsePsLine('Ss   Thu Foo 26 09:13:51 2026')).toBeNull();
  });
});
