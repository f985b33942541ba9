/**
 * The browser host keeps one origin per data folder (issue 14, item 4): IndexedDB is per
 * origin, so a host restarted at another address would show an empty queue. It remembers its
 * port and its own name (issue 22: `<name>.localhost`) in the data folder and reuses them; when
 * that port is taken it says so (which port, where the queue is, how to free it) instead of
 * starting on another origin.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { type AppOnHost, startAppOnHost } from '../../../electron/host';
import { HOST_PORT_FILE } from '../../../electron/host/host-port';

/** Whether this computer has an IPv6 loopback address (the [::1] test needs one). */
const hasV6 = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen({ port: 0, host: '::1' }, () => probe.close(() => resolve(true)));
});
if (!hasV6) console.log('the [::1] port test skipped: this computer has no IPv6 loopback address');

describe('browser host port per data folder', () => {
  let dataDir: string;
  const running: AppOnHost[] = [];
  const blockers: Server[] = [];

  const start = (port?: number) =>
    startAppOnHost({
      dataDir,
      secretStore: new MemorySecretStore(),
      stablePort: true,
      logError: () => {},
      ...(port !== undefined ? { port } : {}),
    }).then((app) => (running.push(app), app));
  const occupy = (port: number, host = '127.0.0.1') =>
    new Promise<Server>((done, fail) => {
      const server = createServer();
      server.once('error', fail);
      server.listen({ port, host, ipv6Only: host === '::1' }, () => done(server));
      blockers.push(server);
    });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-host-port-'));
  });

  afterEach(async () => {
    for (const app of running.splice(0)) await app.stop();
    for (const server of blockers.splice(0)) await new Promise((done) => server.close(done));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('remembers the port it first got in the data folder and starts on it again', async () => {
    const first = await start();
    const port = first.host.port;
    const site = new URL(first.host.url).hostname.replace(/\.localhost$/, '');
    expect(site).toMatch(/^ad-[a-z0-9]{16}$/);
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toEqual({ version: 2, port, site });
    await first.stop();
    running.length = 0;
    const second = await start();
    expect(second.host.port).toBe(port);
    expect(second.host.url).toBe(first.host.url);
    // another data folder, another name: no cookie or storage shared between them
    const elsewhere = await startAppOnHost({
      dataDir: join(dataDir, 'other'),
      secretStore: new MemorySecretStore(),
      stablePort: true,
      logError: () => {},
    }).then((app) => (running.push(app), app));
    expect(new URL(elsewhere.host.url).hostname).not.toBe(new URL(first.host.url).hostname);
  });

  it('refuses to start on another origin when its port is taken, and says which, where the queue is and how to free it', async () => {
    const first = await start();
    const port = first.host.port;
    await first.stop();
    running.length = 0;
    await occupy(port);
    const failure = await start().then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toContain(`Port ${port} on 127.0.0.1 is in use`);
    expect(failure?.message).toContain(new URL(first.host.url).origin);
    expect(failure?.message).toContain(dataDir);
    expect(failure?.message).toMatch(/queue/);
    expect(failure?.message).toMatch(/ss -ltnp|lsof/);
    expect(failure?.message).toMatch(/--port/);
  });

  it.skipIf(!hasV6)(
    'refuses to start when another program holds the remembered port on [::1] (issue 31, item 1)',
    async () => {
      const first = await start();
      const port = first.host.port;
      await first.stop();
      running.length = 0;
      await occupy(port, '::1');
      const failure = await start().then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(failure?.name).toBe('PortTakenError');
      expect(failure?.message).toMatch(
        new RegExp(`^Port ${port} on \\[::1\\] is in use, so Adoption Desk did not start\\.`),
      );
      expect(failure?.message).toContain('launch link and the session');
      expect(failure?.message).toContain(new URL(first.host.url).origin);
    },
  );

  it('starts on a port given explicitly, leaving the remembered one as it is', async () => {
    const first = await start();
    const port = first.host.port;
    await first.stop();
    running.length = 0;
    const other = await start(0);
    expect(other.host.port).not.toBe(port);
    expect(other.notice).toContain(new URL(first.host.url).origin);
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toMatchObject({ version: 2, port });
  });

  it('ignores an unreadable port file and writes a good one', async () => {
    writeFileSync(join(dataDir, HOST_PORT_FILE), '{"version":1,"port":"x"}');
    const app = await start();
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toEqual({
      version: 2,
      port: app.host.port,
      site: new URL(app.host.url).hostname.replace(/\.localhost$/, ''),
    });
  });

  it('keeps the port of a file from before names, and gives the data folder a name from now on', async () => {
    const blocker = await occupy(0);
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise((done) => blocker.close(done));
    blockers.length = 0;
    writeFileSync(join(dataDir, HOST_PORT_FILE), JSON.stringify({ version: 1, port }));
    const app = await start();
    expect(app.host.port).toBe(port);
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toMatchObject({ version: 2, port });
  });
});
