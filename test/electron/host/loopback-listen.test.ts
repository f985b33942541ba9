/**
 * Issue 31, item 1: the host holds both loopback addresses on one port (Chromium tries [::1]
 * first for `*.localhost`), and does not start on a port where another program holds either.
 * Real sockets on this computer's 127.0.0.1 and [::1]; a computer without an IPv6 loopback is
 * played by a server whose bind on ::1 fails as Node's does there (EADDRNOTAVAIL).
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { AddressTakenError, listenOnLoopback } from '../../../electron/host/loopback-listen';
import { freePort } from '../../support/free-port';

const open: Server[] = [];

/** Whether this computer has an IPv6 loopback address (the tests on real [::1] sockets need one). */
const hasV6 = await new Promise<boolean>((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen({ port: 0, host: '::1' }, () => probe.close(() => resolve(true)));
});
if (!hasV6) console.log('tests on real [::1] sockets skipped: this computer has no IPv6 loopback address');
const v6It = it.skipIf(!hasV6);

afterEach(async () => {
  for (const server of open.splice(0)) {
    if (server.listening) await new Promise((done) => server.close(done));
  }
});

/** Another program's server on `host`:`port`. */
function occupy(port: number, host: string): Promise<Server> {
  const server = createServer();
  open.push(server);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, ipv6Only: host === '::1' }, () => resolve(server));
  });
}

/** Whether `host`:`port` can be bound now: 'bound' or the error's code. */
function tryBind(port: number, host: string): Promise<string> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    server.listen({ port, host }, () => server.close(() => resolve('bound')));
  });
}

const tracked = () => {
  const server = createServer();
  open.push(server);
  return server;
};

/** A server whose bind on ::1 fails with `code` for the first `times` binds (then it binds for real). */
function failingOnV6(code: string, times = Infinity): () => Server {
  let failures = 0;
  return () => {
    const server = tracked();
    const realListen = server.listen.bind(server) as (...args: unknown[]) => Server;
    server.listen = ((options: { host?: string }, callback?: () => void) => {
      if (options.host === '::1' && failures < times) {
        failures += 1;
        const error = Object.assign(new Error(`listen ${code} ::1`), { code });
        queueMicrotask(() => server.emit('error', error));
        return server;
      }
      return realListen(options, callback);
    }) as Server['listen'];
    return server;
  };
}

describe('listenOnLoopback', () => {
  v6It('listens on 127.0.0.1 and [::1] on one free port; nothing else can bind either there', async () => {
    const { port, servers } = await listenOnLoopback(tracked, 0);
    expect(servers.map((server) => (server.address() as { address: string }).address)).toEqual(['127.0.0.1', '::1']);
    expect(servers.map((server) => (server.address() as { port: number }).port)).toEqual([port, port]);
    for (const host of ['::1', '127.0.0.1', '::', '0.0.0.0']) expect(await tryBind(port, host)).toBe('EADDRINUSE');
  });

  v6It('refuses a given port where another program holds [::1], and lets go of 127.0.0.1 again', async () => {
    const port = await freePort();
    await occupy(port, '::1');
    const failure = await listenOnLoopback(tracked, port).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AddressTakenError);
    expect(failure).toMatchObject({ address: '[::1]', port, code: 'EADDRINUSE' });
    expect((failure as Error).message).toMatch(new RegExp(`^Port ${port} on \\[::1\\] is in use`));
    expect((failure as Error).message).toContain('launch link and the session');
    expect(await tryBind(port, '127.0.0.1')).toBe('bound');
  });

  v6It('refuses a given port where another program holds 127.0.0.1', async () => {
    const port = await freePort();
    await occupy(port, '127.0.0.1');
    const failure = await listenOnLoopback(tracked, port).catch((error: unknown) => error);
    expect(failure).toMatchObject({ address: '127.0.0.1', port });
    expect(await tryBind(port, '::1')).toBe('bound');
  });

  v6It('picks another free port when the one it picked is held on [::1] only', async () => {
    const { port, servers } = await listenOnLoopback(failingOnV6('EADDRINUSE', 2), 0);
    expect(servers).toHaveLength(2);
    expect(servers.map((server) => (server.address() as { port: number }).port)).toEqual([port, port]);
    // the two ports given up are closed again: only the last pair listens
    expect(open.filter((server) => server.listening)).toHaveLength(2);
  });

  it('on a computer without an IPv6 loopback address (EADDRNOTAVAIL on ::1) listens on 127.0.0.1 alone', async () => {
    const port = await freePort();
    const { servers } = await listenOnLoopback(failingOnV6('EADDRNOTAVAIL'), port);
    expect(servers.map((server) => server.address())).toEqual([{ address: '127.0.0.1', family: 'IPv4', port }]);
    const noFamily = await listenOnLoopback(failingOnV6('EAFNOSUPPORT'), 0);
    expect(noFamily.servers).toHaveLength(1);
  });

  v6It('passes on any other error of the ::1 bind, with 127.0.0.1 let go', async () => {
    const port = await freePort();
    await expect(listenOnLoopback(failingOnV6('EACCES'), port)).rejects.toMatchObject({ code: 'EACCES' });
    expect(await tryBind(port, '127.0.0.1')).toBe('bound');
  });
});
