/**
 * The browser host as a real child process (`node --import tsx electron/host/cli.ts`), so a
 * test can `kill -9` it and start it again on the same port (IndexedDB is per origin, so the
 * port must not change: given explicitly, or the one the data folder remembers). Node is
 * spawned directly, not through the `tsx` wrapper, so the pid is the host's own and SIGKILL
 * leaves nothing behind. Its stdout and stderr are appended to `logFile` (the key sweep reads
 * it). The first line it prints is its one-time launch URL.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { storeBoundKey } from '../../../electron/core/keys/bound-key';
import type { SecretStore } from '../../../electron/core/keys/secret-store';
import { freePort } from '../../support/free-port';
import type { E2eService } from '../fixtures';
import { expectListLoaded } from '../renderer-helpers';
import { e2eOutDir } from './global-setup';

export { freePort };

const ROOT = resolve(import.meta.dirname, '../../..');

export interface HostProcessOptions {
  /** Omitted: the port the data folder remembers (any free one the first time). */
  port?: number;
  dataDir: string;
  serviceUrl: string;
  keychainService: string;
  logFile: string;
  /** The source tree whose `electron/host/cli.ts` runs (default: this one; an earlier version's, support/earlier-version.ts). */
  root?: string;
  /** Its built renderer (default: this run's build). */
  rendererDir?: string;
}

export interface HostProcess {
  /** The host's origin URL, `http://127.0.0.1:PORT/`. */
  readonly url: string;
  /** The one-time launch URL it printed: open it (once) to get the session. */
  readonly launchUrl: string;
  /** Another one-time launch URL, asked for as staff do: Enter in the host's terminal. */
  newLaunchUrl(): Promise<string>;
  readonly pid: number;
  /** Resolves when the process has exited (by any means). */
  readonly exited: Promise<void>;
  /** `kill -9`. */
  kill(): void;
  /** SIGTERM (a clean stop), then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts the host and resolves once it printed its address (the first line of stdout). */
export async function startHostProcess(options: HostProcessOptions): Promise<HostProcess> {
  const root = options.root ?? ROOT;
  const args = [
    '--import',
    'tsx',
    join(root, 'electron/host/cli.ts'),
    ...(options.port !== undefined ? ['--port', String(options.port)] : []),
    '--data-dir',
    options.dataDir,
    '--local-demo-url',
    options.serviceUrl,
    '--keychain-service',
    options.keychainService,
    '--renderer-dir',
    options.rendererDir ?? join(e2eOutDir(), 'renderer'),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  void exited.then(() => log.end());
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    out += chunk.toString();
  });
  const launchUrl = await new Promise<string>((done, fail) => {
    let err = '';
    child.stdout?.on('data', () => {
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) done(line.trim());
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log.write(chunk);
      err += chunk.toString();
    });
    void exited.then(() => fail(new Error(`the host exited before it was ready: ${err.trim()}`)));
  });
  if (!child.pid) throw new Error('the host has no pid');
  const pid = child.pid;
  return {
    url: `${new URL(launchUrl).origin}/`,
    launchUrl,
    newLaunchUrl() {
      const printed = (): string[] => [...out.matchAll(/^Another one-time link: (\S+)$/gm)].map((m) => m[1] ?? '');
      const before = printed().length;
      return new Promise((done, fail) => {
        const onData = (): void => {
          const links = printed();
          if (links.length <= before) return;
          child.stdout?.off('data', onData);
          done(links[before] ?? '');
        };
        child.stdout?.on('data', onData);
        void exited.then(() => fail(new Error('the host exited before it printed another link')));
        child.stdin?.write('\n');
      });
    },
    pid,
    exited,
    kill() {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGKILL');
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGTERM');
      await exited;
    },
  };
}

/** What a test of its own host process starts from: its fixtures. */
export interface HostProcessTest {
  service: E2eService;
  dataDir: string;
  keychainService: string;
  secretStore: SecretStore;
  browser: Browser;
}

/**
 * The service's key stored for Local demo, the host started as a process of its own (its data
 * folder and log inside the test's), and a page of a new browser context opened on its launch
 * link with the list loaded. On failure what was started is stopped again.
 */
export async function openOnHostProcess(
  test: HostProcessTest,
  port?: number,
): Promise<{ options: HostProcessOptions; host: HostProcess; context: BrowserContext; page: Page }> {
  await storeBoundKey(test.secretStore, 'local', test.service.url, test.service.key);
  const options: HostProcessOptions = {
    ...(port !== undefined ? { port } : {}),
    dataDir: join(test.dataDir, 'app'),
    serviceUrl: test.service.url,
    keychainService: test.keychainService,
    logFile: join(test.dataDir, 'host.log'),
  };
  const host = await startHostProcess(options);
  const context = await test.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(host.launchUrl);
    await expectListLoaded(page);
    return { options, host, context, page };
  } catch (error) {
    await context.close();
    await host.stop();
    throw error;
  }
}
