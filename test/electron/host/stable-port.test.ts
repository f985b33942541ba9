/**
 * The browser host keeps one origin per data folder (issue 14, item 4): IndexedDB is per
 * origin, so a host restarted on another port would show an empty queue. It remembers its
 * port in the data folder and reuses it; when that port is taken it says so (which port,
 * where the queue is, how to free it) instead of starting on another origin.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { type AppOnHost, startAppOnHost } from '../../../electron/host';
import { HOST_PORT_FILE } from '../../../electron/host/host-port';

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
  const occupy = (port: number) =>
    new Promise<Server>((done, fail) => {
      const server = createServer();
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => done(server));
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
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toEqual({ version: 1, port });
    await first.stop();
    running.length = 0;
    const second = await start();
    expect(second.host.port).toBe(port);
    expect(second.host.url).toBe(first.host.url);
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
    expect(failure?.message).toContain(`Port ${port}`);
    expect(failure?.message).toContain(`http://127.0.0.1:${port}`);
    expect(failure?.message).toContain(dataDir);
    expect(failure?.message).toMatch(/queue/);
    expect(failure?.message).toMatch(/ss -ltnp|lsof/);
    expect(failure?.message).toMatch(/--port/);
  });

  it('starts on a port given explicitly, leaving the remembered one as it is', async () => {
    const first = await start();
    const port = first.host.port;
    await first.stop();
    running.length = 0;
    const other = await start(0);
    expect(other.host.port).not.toBe(port);
    expect(other.notice).toContain(`http://127.0.0.1:${port}`);
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toEqual({ version: 1, port });
  });

  it('ignores an unreadable port file and writes a good one', async () => {
    writeFileSync(join(dataDir, HOST_PORT_FILE), '{"version":1,"port":"x"}');
    const app = await start();
    expect(JSON.parse(readFileSync(join(dataDir, HOST_PORT_FILE), 'utf8'))).toEqual({
      version: 1,
      port: app.host.port,
    });
  });
});
