/**
 * One process per data folder. The desktop app and `npm run host` (or two of either) on one data
 * folder would each keep the safety copy in their own memory and compact its journal from it,
 * so one could erase from disk an animal the other saved. The core takes this lock when it opens
 * the folder (open-data-folder.ts), holds it for the process's life and lets it go when disposed
 * or when the process exits; a second process is refused with a sentence that says so.
 *
 * Node offers no advisory lock (flock/fcntl/LockFileEx: nodejs/node#122, #54446, declined), so
 * the lock is a file, `in-use.lock`, made whole and then put in place exclusively (a hard link,
 * which fails with EEXIST when the name is taken), holding who holds it: the process id and a
 * start marker. A lock whose holder is gone is taken over, so a crash (kill -9, a power cut)
 * never blocks the next start:
 * - gone: `process.kill(pid, 0)` fails with ESRCH (POSIX; on Windows libuv's uv_kill answers
 *   ESRCH for an exited process: deps/uv/src/win/process.c, GetExitCodeProcess != STILL_ACTIVE),
 *   or the process is a zombie (Linux /proc/<pid>/stat state Z; macOS `ps` stat Z);
 * - another process with the same id (ids are reused): its start differs from the marker. On
 *   Linux the marker is exact (boot id and start time in clock ticks, /proc); on macOS and Windows
 *   the holder writes the wall-clock time it started (now less `process.uptime()`) and the other
 *   process compares it with the system's record (`ps -o lstart`, PowerShell `Get-Process
 *   StartTime`), allowing START_SLACK_MS for the runtime's own start-up.
 * When that cannot be told (a start time the system will not give), the holder counts as running:
 * never two processes at once, at worst a refusal until that process ends.
 *
 * Taking over is race-free between two starters: the stale file is first renamed to a name of
 * this process's own (atomic), and only when what was moved is still the lock judged stale is it
 * dropped; otherwise (another process took the folder in between) it is put back.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants, readFileSync, unlinkSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { t } from '../../../src/shared/i18n';

export const LOCK_FILE = 'in-use.lock';

/** How far the system's start time of the holder may be from the one it wrote (runtime start-up, clock rounding). */
export const START_SLACK_MS = 10_000;

const LockRecord = z.object({
  version: z.literal(1),
  pid: z.number().int().positive(),
  /** Wall-clock ms when the holder started (now − process.uptime() as it took the lock). */
  startedAt: z.number(),
  /** Linux: `<boot id>/<start time in clock ticks>` from /proc, exact; null elsewhere. */
  linuxStart: z.string().nullable(),
  /** This lock and no other: tells a lock from the one a takeover judged stale, and ours from another's. */
  nonce: z.string(),
});
export type LockRecord = z.infer<typeof LockRecord>;

/** What the system says of a process id now. */
export type ProcessState =
  | { running: false }
  | {
      running: true;
      /** Linux: the exact start marker (boot id and clock ticks), else null. */
      linuxStart: string | null;
      /** The wall-clock ms the system says it started, or null when it will not tell. */
      startedAt: number | null;
    };

/** How processes are looked at (tests give a scripted one). */
export interface ProcessProbe {
  /** This process's own record: its id, when it started, and its exact Linux marker where there is one. */
  self(): Promise<Pick<LockRecord, 'pid' | 'startedAt' | 'linuxStart'>>;
  /** Another process: gone, or running and when it started. */
  inspect(pid: number): Promise<ProcessState>;
}

export class DataFolderInUseError extends Error {
  override readonly name = 'DataFolderInUseError';

  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(t('core.dataFolderInUse', { dataDir, pid }));
  }
}

/** The lock this process holds on a data folder. */
export interface FolderLock {
  readonly path: string;
  /** Lets the folder go (only when the file is still this lock); safe to call twice. */
  release(): Promise<void>;
}

/** The nonces of the locks this process holds (a second core in this process is refused as well). */
const held = new Set<string>();

export interface LockOptions {
  probe?: ProcessProbe;
  /** How a look again at a lock still being written waits (tests pass one that does not). */
  wait?: (ms: number) => Promise<void>;
}

/**
 * Takes `dataDir`'s lock (the folder must exist), or throws DataFolderInUseError naming the
 * process that holds it. The lock is let go by `release()`, and by the process's `exit` event
 * (also an uncaught exception; Electron emits it on quit, lib/browser/init.ts); a process killed
 * outright leaves the file, which the next start takes over.
 */
export async function lockDataFolder(dataDir: string, options: LockOptions = {}): Promise<FolderLock> {
  const { probe = systemProcessProbe(), wait = (ms) => new Promise<void>((done) => setTimeout(done, ms)) } = options;
  const path = join(dataDir, LOCK_FILE);
  const record: LockRecord = { version: 1, ...(await probe.self()), nonce: randomBytes(16).toString('hex') };
  const text = `${JSON.stringify(record)}\n`;
  // The file is whole before it has its name: a reader never sees half a lock.
  const draft = join(dataDir, `${LOCK_FILE}.${record.nonce}`);
  await fs.writeFile(draft, text, { flag: 'wx', mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await putInPlace(draft, path);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 10) throw error;
      }
      let found: string;
      try {
        found = await fs.readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      const holder = parseLock(found);
      if (holder && (await holderRunning(holder, probe))) throw new DataFolderInUseError(dataDir, holder.pid);
      // A file that is no lock may be one still being written (putInPlace's copy): look again before taking it.
      if (!holder && attempt < 3) {
        await wait(100);
        continue;
      }
      await takeOver(path, found, record.nonce);
    }
  } finally {
    await fs.rm(draft, { force: true });
  }
  held.add(record.nonce);
  const onExit = (): void => {
    // 'exit' allows synchronous work only.
    try {
      if (readFileSync(path, 'utf8') === text) unlinkSync(path);
    } catch {
      // gone already, or the folder with it
    }
  };
  process.once('exit', onExit);
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      process.off('exit', onExit);
      held.delete(record.nonce);
      try {
        if ((await fs.readFile(path, 'utf8')) === text) await fs.rm(path, { force: true });
      } catch {
        // gone already
      }
    },
  };
}

/**
 * Gives the whole draft the lock's name, failing with EEXIST when the name is taken: a hard link
 * (atomic, the file whole from its first moment). Where the file system has no hard links (FAT,
 * some network shares) a copy that refuses an existing name (COPYFILE_EXCL) instead.
 */
async function putInPlace(draft: string, path: string): Promise<void> {
  try {
    await fs.link(draft, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error;
    await fs.copyFile(draft, path, fsConstants.COPYFILE_EXCL);
  }
}

/** A lock file's record, or null when it is not one (a hand edit, damage): such a file holds nothing. */
function parseLock(text: string): LockRecord | null {
  try {
    const parsed = LockRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether the process a lock names is still the one that took it. */
export async function holderRunning(holder: LockRecord, probe: ProcessProbe): Promise<boolean> {
  const self = await probe.self();
  // Our own id: one of our locks (a second core in this process), or a lock of an earlier
  // process that had our id and is gone.
  if (holder.pid === self.pid) return held.has(holder.nonce);
  const state = await probe.inspect(holder.pid);
  if (!state.running) return false;
  if (holder.linuxStart !== null && state.linuxStart !== null) return holder.linuxStart === state.linuxStart;
  if (state.startedAt === null) return true;
  return Math.abs(state.startedAt - holder.startedAt) <= START_SLACK_MS;
}

/** Moves a stale lock out of the way, unless what is there is no longer the one judged stale. */
async function takeOver(path: string, stale: string, nonce: string): Promise<void> {
  const aside = `${path}.stale-${nonce}`;
  try {
    await fs.rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await fs.readFile(aside, 'utf8').catch(() => stale);
  if (moved !== stale) {
    // Another process took the folder between our read and our rename: its lock goes back.
    await fs.link(aside, path).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
}

/** This process, and others, as the operating system tells them. */
export function systemProcessProbe(platform: NodeJS.Platform = process.platform): ProcessProbe {
  return {
    async self() {
      return {
        pid: process.pid,
        startedAt: Math.round(Date.now() - process.uptime() * 1000),
        linuxStart:
          platform === 'linux'
            ? await linuxStat(process.pid).then((own) => (own.state === 'running' ? own.marker : null))
            : null,
      };
    },
    async inspect(pid) {
      try {
        process.kill(pid, 0);
      } catch (error) {
        // EPERM: it exists, as another user's process.
        if ((error as NodeJS.ErrnoException).code === 'ESRCH') return { running: false };
      }
      if (platform === 'linux') {
        const stat = await linuxStat(pid);
        return stat.state === 'gone' ? { running: false } : { running: true, linuxStart: stat.marker, startedAt: null };
      }
      if (platform === 'win32') return { running: true, linuxStart: null, startedAt: await windowsStart(pid) };
      return macStart(pid);
    },
  };
}

let bootId: string | null = null;

type LinuxStat = { state: 'gone' } | { state: 'running'; marker: string | null };

/**
 * Linux: `<boot id>/<start time>`: field 22 of /proc/<pid>/stat (clock ticks since boot, proc(5)),
 * with the boot it counts from. A process that has ended but is not reaped yet (state Z or X) is
 * gone; a marker /proc will not give is null.
 */
async function linuxStat(pid: number): Promise<LinuxStat> {
  let stat: string;
  try {
    stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    bootId ??= (await fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { state: 'gone' } : { state: 'running', marker: null };
  }
  // The command name (field 2) is in parentheses and may hold spaces and ')': read from the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  if (state === 'Z' || state === 'X') return { state: 'gone' };
  const ticks = fields[19];
  return { state: 'running', marker: ticks ? `${bootId}/${ticks}` : null };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * `ps -o stat=,lstart=` in the C locale and UTC, as macOS (and procps) print it:
 * `Ss   Mon Nov 23 10:11:12 2026`. Null when it is not that form.
 */
export function parsePsLine(line: string): { zombie: boolean; startedAt: number } | null {
  const match = /^(\S+)\s+\w{3}\s+(\w{3})\s+(\d{1,2})\s+(\d{2}):(\d{2}):(\d{2})\s+(\d{4})$/.exec(line.trim());
  if (!match) return null;
  const [, stat = '', month = '', day, hours, minutes, seconds, year] = match;
  const monthIndex = MONTHS.indexOf(month);
  if (monthIndex < 0) return null;
  return {
    zombie: stat.startsWith('Z'),
    startedAt: Date.UTC(Number(year), monthIndex, Number(day), Number(hours), Number(minutes), Number(seconds)),
  };
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 20_000, windowsHide: true }, (error, stdout) =>
      resolve(error ? null : stdout),
    );
  });
}

/** macOS: `/bin/ps` (BSD ps: `lstart` is the start time to the second; no line when there is no such process). */
async function macStart(pid: number): Promise<ProcessState> {
  const printed = await run('/bin/ps', ['-o', 'stat=,lstart=', '-p', String(pid)], {
    ...process.env,
    LC_ALL: 'C',
    TZ: 'UTC',
  });
  if (printed === null) {
    // ps exits 1 when no process has that id; the signal above said one had: look again.
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return { running: false };
    }
    return { running: true, linuxStart: null, startedAt: null };
  }
  const parsed = parsePsLine(printed);
  if (parsed?.zombie) return { running: false };
  return { running: true, linuxStart: null, startedAt: parsed?.startedAt ?? null };
}

/**
 * Windows: `(Get-Process -Id N).StartTime` through Windows PowerShell by its full path (as
 * managed-settings does; the id comes through the environment). `StartTime` is .NET's
 * Process.StartTime, read from the process's creation time; another session's or an elevated
 * process may refuse it (then null: counted as running).
 */
async function windowsStart(pid: number): Promise<number | null> {
  const exe = `${process.env.SystemRoot ?? 'C:\\Windows'}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`;
  const script =
    "$ErrorActionPreference = 'Stop'; " +
    "(Get-Process -Id ([int]$env:ADOPTION_LOCK_PID)).StartTime.ToUniversalTime().ToString('o')";
  const printed = await run(
    exe,
    ['-NoLogo', '-NoProfile', '-NonInteractive', '-EncodedCommand', Buffer.from(script, 'utf16le').toString('base64')],
    { ...process.env, ADOPTION_LOCK_PID: String(pid) },
  );
  const at = printed === null ? Number.NaN : Date.parse(printed.trim());
  return Number.isNaN(at) ? null : at;
}
