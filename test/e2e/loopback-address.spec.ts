/**
 * Issue 31, item 1: the other loopback address. Chromium resolves every `*.localhost` name to
 * [::1] first and then 127.0.0.1 (net/dns/host_resolver_manager.cc, ResolveLocalHostname), and
 * connects to whichever accepts first in that order. So another user of this computer who listens
 * on [::1]:PORT, where the host holds only 127.0.0.1:PORT (the port is visible to everyone, `ss
 * -ltn`, and stable per data folder), receives `GET /?launch=<secret>` and the session after it.
 *
 * Each test goes through the attacker's door: it binds [::1]:PORT first, as the other user would,
 * with a server that records what reaches it, and then opens the host's launch link in real
 * Chromium. The host must refuse to start, with a sentence that says the address is taken, at a
 * first start on a given port and at a restart on the remembered one; and once it runs, it holds
 * [::1]:PORT itself, so a later listener cannot bind it.
 */
import type { Browser } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { expect, test } from './fixtures';
import { expectListLoaded } from './renderer-helpers';
import { freePort, type HostProcess, type HostProcessOptions, startHostProcess } from './support/host-process';

/** The other user's server on [::1]:port: it answers everything and records each request line and Host. */
interface Squatter {
  readonly seen: string[];
  close(): Promise<void>;
}

function squat(port: number): Promise<Squatter> {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} Host=${request.headers.host}`);
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<!doctype html><title>Not Adoption Desk</title><p>another user of this computer');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // ipv6Only changes nothing for a specific address; said so the intent is plain: [::1] alone.
    server.listen({ port, host: '::1', ipv6Only: true }, () =>
      resolve({
        seen,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

/** Whether this computer has an IPv6 loopback address at all (without one, no one can listen there). */
async function hasIpv6Loopback(): Promise<boolean> {
  return (await canBindV6(0)) !== 'EADDRNOTAVAIL' && (await canBindV6(0)) !== 'EAFNOSUPPORT';
}

/** Whether [::1]:port can be bound right now (by anyone else: the test is another process's peer). */
function canBindV6(port: number): Promise<string> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)));
    server.listen({ port, host: '::1', ipv6Only: true }, () => server.close(() => resolve('bound')));
  });
}

/** The sentence the host prints when one of its two addresses is held by another program. */
const takenSentence = (port: number) => `Port ${port} on [::1] is in use, so Adoption Desk did not start.`;

test.describe('the browser host and the IPv6 loopback address', () => {
  test.use({ serviceOptions: { seedAnimals: 3 } });

  let squatter: Squatter | null = null;
  let host: HostProcess | null = null;
  test.beforeEach(async () => {
    test.skip(
      !(await hasIpv6Loopback()),
      'this computer has no IPv6 loopback address (::1): no one can listen there, and the host holds 127.0.0.1 alone',
    );
  });
  test.afterEach(async () => {
    await host?.stop();
    host = null;
    await squatter?.close();
    squatter = null;
  });

  /**
   * Starts the host; when it starts although the other user holds [::1]:PORT (main before the
   * fix), opens its launch link in Chromium, so the failure shows what the other user received.
   */
  async function startDespiteSquatter(options: HostProcessOptions, browser: Browser): Promise<string> {
    let started: HostProcess;
    try {
      started = await startHostProcess(options);
    } catch (error) {
      return (error as Error).message;
    }
    host = started;
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(started.launchUrl).catch(() => undefined);
    await context.close();
    expect(squatter?.seen, 'what the other user received on [::1]').toEqual([]);
    return 'started';
  }

  test('a first start on a given port where another program holds [::1]:PORT refuses, with the sentence', async ({
    service,
    dataDir,
    keychainService,
    secretStore,
    browser,
  }) => {
    await storeBoundKey(secretStore, 'local', service.url, service.key);
    const port = await freePort();
    squatter = await squat(port);
    const options = {
      port,
      dataDir: join(dataDir, 'app'),
      serviceUrl: service.url,
      keychainService,
      logFile: join(dataDir, 'host.log'),
    };
    const outcome = await startDespiteSquatter(options, browser);
    expect(outcome).toContain(takenSentence(port));
    expect(squatter.seen).toEqual([]);
  });

  test('a restart on the remembered port, taken on [::1] meanwhile, refuses with the sentence', async ({
    service,
    dataDir,
    keychainService,
    secretStore,
    browser,
  }) => {
    await storeBoundKey(secretStore, 'local', service.url, service.key);
    const options = {
      dataDir: join(dataDir, 'app'),
      serviceUrl: service.url,
      keychainService,
      logFile: join(dataDir, 'host.log'),
    };
    const first = await startHostProcess(options);
    const port = Number(new URL(first.url).port);
    await first.stop();
    squatter = await squat(port);
    const outcome = await startDespiteSquatter(options, browser);
    expect(outcome).toContain(takenSentence(port));
    expect(squatter.seen).toEqual([]);
  });

  test('a running host holds [::1]:PORT too: a later listener cannot bind it, and the launch link reaches the host', async ({
    service,
    dataDir,
    keychainService,
    secretStore,
    browser,
  }) => {
    await storeBoundKey(secretStore, 'local', service.url, service.key);
    host = await startHostProcess({
      dataDir: join(dataDir, 'app'),
      serviceUrl: service.url,
      keychainService,
      logFile: join(dataDir, 'host.log'),
    });
    const port = Number(new URL(host.url).port);
    expect(await canBindV6(port)).toBe('EADDRINUSE');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(host.launchUrl);
      await expectListLoaded(page);
    } finally {
      await context.close();
    }
  });
});
