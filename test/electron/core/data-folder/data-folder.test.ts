/**
 * The app's data folder as the core opens it (issue 31, items 6 and 9).
 *
 * One process per data folder: the desktop app and `npm run host` on the same folder would each
 * compact the safety copy from their own memory and could erase the other's animal from disk. The
 * second core refuses with a sentence that says so; the host's command line prints it and exits
 * non-zero (two real host processes here); a lock left by a process that was killed (`kill -9`)
 * does not block the next start.
 *
 * Modes (POSIX): the folder is made 0700, and an older folder (0755) and its files (0644) are
 * tightened to 0700 / 0600 when the core opens it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import { startAppOnHost } from '../../../../electron/host';

const ROOT = resolve(import.meta.dirname, '../../../..');
const RESOURCES = join(ROOT, 'resources');

const folders: string[] = [];
const cores: AppCore[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const core of cores.splice(0)) await core.dispose();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'adoption-data-folder-'));
  folders.push(made);
  return made;
}

async function openCore(dataDir: string): Promise<AppCore> {
  const core = await createAppCore({
    fetch: globalThis.fetch,
    dataDir,
    secretStore: new MemorySecretStore(),
    builtIns: { file: join(RESOURCES, 'profiles.json') },
    logError: () => {},
  });
  cores.push(core);
  return core;
}

/** What a host process did: the first line it printed (its launch link) or how it ended, and what it said. */
interface HostRun {
  child: ChildProcess;
  ready: Promise<{ ready: true } | { ready: false; code: number | null; signal: string | null; stderr: string }>;
  exited: Promise<void>;
}

/** `npm run host` as a real process (node --import tsx electron/host/cli.ts) on this data folder. */
function runHost(dataDir: string, env: NodeJS.ProcessEnv = {}): HostRun {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'electron/host/cli.ts'),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--keychain-service',
      `adoption-test-lock-${process.pid}`,
      '--renderer-dir',
      join(dataDir, 'no-renderer'),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C', LANG: 'C', ...env } },
  );
  children.push(child);
  let out = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const ready = new Promise<Awaited<HostRun['ready']>>((done) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) done({ ready: true });
    });
    child.once('exit', (code, signal) => done({ ready: false, code, signal, stderr }));
  });
  return { child, ready, exited };
}

describe('one process per data folder (issue 31, item 6)', () => {
  it('a second core on the same data folder refuses, and says another Adoption Desk is using it', async () => {
    const dataDir = folder();
    await openCore(dataDir);
    const second = await openCore(dataDir).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(second?.message).toMatch(/^Another Adoption Desk is already using the data folder /);
    expect(second?.message).toContain(dataDir);
    expect(second?.message).toContain(`process ${process.pid}`);
  });

  it('the folder is free again once the core that held it is disposed', async () => {
    const dataDir = folder();
    const first = await openCore(dataDir);
    await first.dispose();
    cores.splice(cores.indexOf(first), 1);
    await expect(openCore(dataDir)).resolves.toBeDefined();
  });

  it('a browser host refuses a data folder a core already uses, before it listens', async () => {
    const dataDir = folder();
    await openCore(dataDir);
    await expect(
      startAppOnHost({ dataDir, secretStore: new MemorySecretStore(), stablePort: true, logError: () => {} }),
    ).rejects.toThrow(/Another Adoption Desk is already using the data folder/);
  });

  it('the host command line twice on one folder: the second says so and exits non-zero; after a kill -9 of the first, a new one starts', async () => {
    const dataDir = folder();
    const first = runHost(dataDir);
    expect(await first.ready).toEqual({ ready: true });

    const second = runHost(dataDir);
    const refused = await second.ready;
    expect(refused).toMatchObject({ ready: false, code: 1 });
    const said = refused.ready ? '' : refused.stderr;
    expect(said).toMatch(/^host: Another Adoption Desk is already using the data folder /);
    expect(said).toContain(dataDir);
    expect(said).toContain(`process ${first.child.pid}`);

    // in the system's language (Spanish here), as every line the command line prints
    const spanish = runHost(dataDir, { LC_ALL: 'es_ES.UTF-8', LANG: 'es_ES.UTF-8' });
    const dicho = await spanish.ready;
    expect(dicho).toMatchObject({ ready: false, code: 1 });
    expect(dicho.ready ? '' : dicho.stderr).toMatch(/^host: Otro Adoption Desk ya está usando la carpeta de datos /);

    // a crash leaves the lock behind: it must not block the next start
    first.child.kill('SIGKILL');
    await first.exited;
    const third = runHost(dataDir);
    expect(await third.ready).toEqual({ ready: true });
    // and now that one holds the folder
    await expect(openCore(dataDir)).rejects.toThrow(`process ${third.child.pid}`);
  }, 180_000);
});

const posix = process.platform !== 'win32';
if (!posix) console.log('data folder modes skipped: POSIX file modes do not apply on Windows (ACLs do)');

describe.skipIf(!posix)('data folder modes (issue 31, item 9; POSIX)', () => {
  const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

  it('a new data folder is made 0700, with its safety copy folder 0700 and its files 0600', async () => {
    const dataDir = join(folder(), 'Adoption Desk');
    const core = await openCore(dataDir);
    expect(mode(dataDir)).toBe('700');
    const kept = await core.router.handle('keepEntries', {
      profileId: 'local',
      batch: crypto.randomUUID(),
      complete: true,
      entries: [
        {
          localId: crypto.randomUUID(),
          idempotencyKey: crypto.randomUUID(),
          animal: { name: 'Rex', categoryId: '1' },
          createdAt: 1,
        },
      ],
    });
    expect(kept).toMatchObject({ ok: true });
    expect(mode(join(dataDir, 'safety-copy'))).toBe('700');
    expect(mode(join(dataDir, 'safety-copy', 'local.jsonl'))).toBe('600');
  });

  it('the browser host makes its data folder 0700', async () => {
    const dataDir = join(folder(), 'Adoption Desk');
    const app = await startAppOnHost({
      dataDir,
      secretStore: new MemorySecretStore(),
      stablePort: true,
      logError: () => {},
    });
    try {
      expect(mode(dataDir)).toBe('700');
      expect(mode(join(dataDir, 'browser-host.json'))).toBe('600');
    } finally {
      await app.stop();
    }
  });

  it('an older folder at 0755 with files at 0644 is 0700 / 0600 once the core has opened it', async () => {
    const dataDir = folder();
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'profiles.json'), '{"version":1,"profiles":[]}\n');
    writeFileSync(join(dataDir, 'browser-host.json'), '{"version":1,"port":4242}\n');
    mkdirSync(join(dataDir, 'safety-copy'));
    writeFileSync(join(dataDir, 'safety-copy', 'local.jsonl'), '');
    for (const file of ['profiles.json', 'browser-host.json', 'safety-copy/local.jsonl'])
      chmodSync(join(dataDir, file), 0o644);
    chmodSync(join(dataDir, 'safety-copy'), 0o755);

    await openCore(dataDir);
    expect(mode(dataDir)).toBe('700');
    expect(mode(join(dataDir, 'safety-copy'))).toBe('700');
    for (const file of ['profiles.json', 'browser-host.json', 'safety-copy/local.jsonl'])
      expect([file, mode(join(dataDir, file))]).toEqual([file, '600']);
  });
});
