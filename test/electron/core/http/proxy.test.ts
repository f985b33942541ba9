/**
 * The organisation's proxy (issue 22): the routes a PAC answer and the environment give, then the
 * app core against the local service (at an https:// address of this computer that is not
 * loopback) behind a real tinyproxy (Debian's), reading the proxy's own log and every byte it got:
 * requests go through a CONNECT tunnel (the proxy never sees a path or the key), NO_PROXY is
 * honoured, a proxy that wants a login says so in staff's words and nothing is sent, and with the
 * login saved (in the keychain, never read back) it works.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { sendHttp } from '../../../../electron/core/http/http-client';
import {
  DIRECT,
  envProxyResolver,
  noProxyCovers,
  parsePacResult,
  ProxyRouter,
} from '../../../../electron/core/http/proxy';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import { storeBoundKey } from '../../../../electron/core/keys/bound-key';
import { type RunningService, startService } from '../../../service/index';
import { systemClock } from '../../../../src/shared/basics/clock';
import { type ProxyTap, startProxyTap } from '../../../support/proxy-tap';
import { startTlsFront, type TlsFront, tlsFrontUnavailable, trustFrontCertificate } from '../../../support/tls-front';
import { type RunningProxy, startProxy, tinyproxyAvailable } from '../../../support/tinyproxy';

const RESOURCES = resolve(import.meta.dirname, '../../../../resources');

describe('the way to a service', () => {
  it('reads a PAC answer in order, keeping what the app can use', () => {
    expect(parsePacResult('PROXY proxy.corp:3128; DIRECT')).toEqual([
      { kind: 'http', host: 'proxy.corp', port: 3128 },
      { kind: 'direct' },
    ]);
    expect(parsePacResult('HTTPS secure.corp:8443;SOCKS5 socks.corp:1080;SOCKS old:1081')).toEqual([
      { kind: 'https', host: 'secure.corp', port: 8443 },
      { kind: 'socks5', host: 'socks.corp', port: 1080 },
      { kind: 'socks5', host: 'old', port: 1081 },
    ]);
    expect(parsePacResult('QUIC q:443; PROXY [::1]:8080')).toEqual([{ kind: 'http', host: '::1', port: 8080 }]);
    expect(parsePacResult('')).toEqual([{ kind: 'direct' }]);
    expect(parsePacResult('PROXY nonsense:99999')).toEqual([{ kind: 'direct' }]);
  });

  it('follows NO_PROXY as curl does: *, hosts and their subdomains, .suffix, an optional port', () => {
    const url = new URL('https://api.shelter.example.org/v1/pets');
    expect(noProxyCovers('', url)).toBe(false);
    expect(noProxyCovers('*', url)).toBe(true);
    expect(noProxyCovers('example.org', url)).toBe(true);
    expect(noProxyCovers('.example.org', url)).toBe(true);
    expect(noProxyCovers('*.example.org', url)).toBe(true);
    expect(noProxyCovers('ample.org', url)).toBe(false);
    expect(noProxyCovers('localhost, api.shelter.example.org:443', url)).toBe(true);
    expect(noProxyCovers('api.shelter.example.org:8443', url)).toBe(false);
    expect(noProxyCovers('127.0.0.1', new URL('http://127.0.0.1:4010/v1'))).toBe(true);
    expect(noProxyCovers('[::1]', new URL('http://[::1]:4010/v1'))).toBe(true);
  });

  it('takes HTTPS_PROXY for https:// and HTTP_PROXY for http://, in either case, unless NO_PROXY says', async () => {
    const env = { https_proxy: 'http://tls.corp:3128', HTTP_PROXY: 'plain.corp:8080', NO_PROXY: 'intranet.corp' };
    const resolver = envProxyResolver(env);
    expect(await resolver.resolve(new URL('https://api.example.org/v1'))).toEqual([
      { kind: 'http', host: 'tls.corp', port: 3128 },
    ]);
    expect(await resolver.resolve(new URL('http://api.example.org/v1'))).toEqual([
      { kind: 'http', host: 'plain.corp', port: 8080 },
    ]);
    expect(await resolver.resolve(new URL('https://svc.intranet.corp/v1'))).toEqual([{ kind: 'direct' }]);
    expect(await envProxyResolver({}).resolve(new URL('https://api.example.org/v1'))).toEqual([{ kind: 'direct' }]);
    expect(await envProxyResolver({ HTTPS_PROXY: 'socks5://s.corp' }).resolve(new URL('https://a.org'))).toEqual([
      { kind: 'socks5', host: 's.corp', port: 1080 },
    ]);
  });
});

const hasProxy = tinyproxyAvailable();
if (!hasProxy) console.log('tests through tinyproxy skipped: it is not installed (apt-get install -y tinyproxy)');
const noFront = tlsFrontUnavailable();
if (hasProxy && noFront) console.log(`tests through tinyproxy to an https:// service skipped: ${noFront}`);
const proxyIt = it.skipIf(!hasProxy || noFront !== null);

/**
 * The service as an organisation's is, to the app behind its proxy: at an https:// address that is
 * not loopback (the app proxies nothing else: item 4 below), through the HTTPS front
 * (test/support/tls-front.ts) whose certificate this process trusts for the test.
 */
// A read that gets no answer (a refused connection, a failed TLS handshake) is retried by the governor 3
// times with full-jitter backoff (ceilings 1, 2, 4 s: rate-limit/pause-policy.ts): up to 7 s of real time.
describe('the app core behind a real proxy (tinyproxy)', { timeout: 20_000 }, () => {
  let dataDir: string;
  let service: RunningService;
  let front: TlsFront;
  let untrust: () => void;
  let proxy: RunningProxy;
  let tap: ProxyTap | null = null;
  let core: AppCore;
  let secretStore: MemorySecretStore;
  const KEY = 'k-proxy-secret-1';

  async function startCore(env: NodeJS.ProcessEnv): Promise<void> {
    secretStore = new MemorySecretStore();
    await storeBoundKey(secretStore, 'local', front.url, KEY);
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore,
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: front.url,
      proxy: envProxyResolver(env),
      http: { headersTimeoutMs: 5000, totalTimeoutMs: 5000 },
      logError: () => {},
    });
  }

  const list = () => core.router.handle('listPets', { profileId: 'local', query: { limit: 3 } });
  const create = (name: string) =>
    core.router.handle('createPet', {
      profileId: 'local',
      animal: { name, categoryId: '2' },
      idempotencyKey: crypto.randomUUID(),
    });
  const lastVia = async () => {
    const read = await core.router.handle('diagnostics', {});
    const entries = read.ok ? (read.data as { entries: Array<{ via?: string }> }).entries : [];
    return entries.at(-1)?.via;
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-proxy-core-'));
    service = await startService({ port: 0, keys: { [KEY]: 'free' }, seedAnimals: 5 });
    front = await startTlsFront(service.url);
    untrust = trustFrontCertificate(front.certificate);
  });

  afterEach(async () => {
    await core?.dispose();
    await tap?.stop();
    tap = null;
    await proxy?.stop();
    untrust();
    await front.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  proxyIt(
    'sends every request through the proxy in a CONNECT tunnel: the proxy sees the host, never a path or the key',
    async () => {
      proxy = await startProxy();
      tap = await startProxyTap(proxy.port);
      await startCore({ HTTPS_PROXY: `http://${tap.address}` });
      expect(await list()).toMatchObject({ ok: true });
      expect(await create('Through the tunnel')).toMatchObject({ ok: true });
      expect(service.animalCount()).toBe(6);
      expect(new Set(await proxy.requests())).toEqual(new Set([`CONNECT ${front.host} HTTP/1.1`]));
      expect(tap.seen()).not.toMatch(/authorization/i);
      expect(tap.seen()).not.toContain(KEY);
      expect(tap.seen()).not.toContain('/v1/pets');
      expect(await lastVia()).toBe(`PROXY ${tap.address}`);
    },
  );

  proxyIt('goes straight to an address NO_PROXY names', async () => {
    proxy = await startProxy();
    await startCore({ HTTPS_PROXY: `http://${proxy.address}`, NO_PROXY: `localhost,${new URL(front.url).hostname}` });
    expect(await list()).toMatchObject({ ok: true });
    expect(await proxy.requests()).toEqual([]);
    expect(await lastVia()).toBe('DIRECT');
  });

  proxyIt(
    'a proxy that wants a login: staff are told where to enter it, nothing reaches the service; with it, it works',
    async () => {
      proxy = await startProxy({ login: { username: 'shelter', password: 'proxy-pass-9000' } });
      await startCore({ HTTPS_PROXY: `http://${proxy.address}` });
      const before = service.animalCount();
      const created = await create('Behind the proxy');
      expect(created).toEqual({
        ok: false,
        error: {
          code: 'proxy_auth',
          message: `The proxy at ${proxy.address} asks for a login. Enter it in Keys and profiles, under "Proxy login".`,
          notSent: true,
          proxy: proxy.address,
        },
      });
      expect(service.animalCount()).toBe(before);
      expect(await core.router.handle('proxyLogins', {})).toEqual({
        ok: true,
        data: { logins: [], asked: [proxy.address] },
      });

      expect(
        await core.router.handle('setProxyLogin', {
          proxy: proxy.address,
          username: 'shelter',
          password: 'proxy-pass-9000',
        }),
      ).toEqual({ ok: true, data: { saved: true } });
      expect(await list()).toMatchObject({ ok: true });
      expect(await core.router.handle('proxyLogins', {})).toEqual({
        ok: true,
        data: { logins: [{ proxy: proxy.address, username: 'shelter' }], asked: [] },
      });
      // kept in the keychain, and never handed out: no answer of the core carries the password
      expect(await secretStore.get(`proxy-login:${proxy.address}`)).toContain('proxy-pass-9000');
      const everything = JSON.stringify([
        await core.router.handle('diagnostics', {}),
        await core.router.handle('proxyLogins', {}),
      ]);
      expect(everything).not.toContain('proxy-pass-9000');
      expect(everything).not.toContain(Buffer.from('shelter:proxy-pass-9000').toString('base64'));

      expect(await core.router.handle('clearProxyLogin', { proxy: proxy.address })).toEqual({
        ok: true,
        data: { cleared: true },
      });
      expect(await list()).toMatchObject({ ok: false, error: { code: 'proxy_auth' } });
    },
  );
});

describe('a proxy that cannot be reached', { timeout: 20_000 }, () => {
  // Nothing gets past the proxy here, so no real proxy and no https front are needed: it runs everywhere.
  it('is named, and nothing was sent', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'adoption-proxy-gone-'));
    const secretStore = new MemorySecretStore();
    const address = 'https://animals.example/v1';
    await storeBoundKey(secretStore, 'local', address, 'k-proxy-secret-2');
    const core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore,
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: address,
      proxy: envProxyResolver({ HTTPS_PROXY: 'http://127.0.0.1:1' }),
      http: { headersTimeoutMs: 5000, totalTimeoutMs: 5000 },
      logError: () => {},
    });
    try {
      expect(await core.router.handle('listPets', { profileId: 'local', query: { limit: 3 } })).toMatchObject({
        ok: false,
        error: {
          code: 'offline',
          notSent: true,
          message: 'The proxy at 127.0.0.1:1 could not be reached. Check the network connection.',
        },
      });
    } finally {
      await core.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Issue 31, item 4: the key to a proxy in clear. With HTTP_PROXY set, a loopback http:// service
 * (Local demo, a tunnel) was sent through the proxy, `Authorization: Bearer <key>` included, and
 * `NO_PROXY=localhost` does not name 127.0.0.1. A tap in front of a real tinyproxy keeps every byte
 * the proxy receives (tinyproxy logs request lines only): no request for a loopback service may
 * reach it, and no `Authorization` header ever, outside TLS inside a CONNECT tunnel.
 */
describe.skipIf(!hasProxy)('the key never reaches a proxy in clear (issue 31, item 4)', { timeout: 20_000 }, () => {
  let dataDir: string;
  let service: RunningService;
  let proxy: RunningProxy;
  let tap: ProxyTap;
  let core: AppCore | null = null;
  const KEY = 'k-never-to-a-proxy-77';

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-proxy-clear-'));
    service = await startService({ port: 0, keys: { [KEY]: 'free' }, seedAnimals: 3 });
    proxy = await startProxy();
    tap = await startProxyTap(proxy.port);
  });

  afterEach(async () => {
    await core?.dispose();
    core = null;
    await tap.stop();
    await proxy.stop();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a loopback http:// service goes straight, with NO_PROXY=localhost: the proxy sees nothing', async () => {
    const secretStore = new MemorySecretStore();
    await storeBoundKey(secretStore, 'local', service.url, KEY);
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore,
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: service.url,
      proxy: envProxyResolver({ HTTP_PROXY: `http://${tap.address}`, NO_PROXY: 'localhost' }),
      http: { headersTimeoutMs: 5000, totalTimeoutMs: 5000 },
      logError: () => {},
    });
    const listed = await core.router.handle('listPets', { profileId: 'local', query: { limit: 3 } });
    const created = await core.router.handle('createPet', {
      profileId: 'local',
      animal: { name: 'Not through the proxy', categoryId: '2' },
      idempotencyKey: crypto.randomUUID(),
    });
    const seen = tap.seen();
    expect(seen.match(/^[A-Z]+ \S+ HTTP\/1\.1$/gm) ?? [], 'request lines the proxy received').toEqual([]);
    expect(seen, 'what the proxy received').not.toMatch(/authorization/i);
    expect(seen).not.toContain(KEY);
    expect(await proxy.requests()).toEqual([]);
    expect(tap.connections()).toBe(0);
    expect(listed).toMatchObject({ ok: true });
    expect(created).toMatchObject({ ok: true });
    const diagnostics = await core.router.handle('diagnostics', {});
    const vias = diagnostics.ok ? (diagnostics.data as { entries: Array<{ via?: string }> }).entries : [];
    expect(new Set(vias.map((entry) => entry.via))).toEqual(new Set(['DIRECT']));
  });

  it('every loopback name and address goes straight, whatever HTTP_PROXY and NO_PROXY say', async () => {
    const resolver = envProxyResolver({ HTTP_PROXY: `http://${tap.address}`, HTTPS_PROXY: `http://${tap.address}` });
    for (const url of [
      'http://127.0.0.1:4010/v1',
      'http://127.8.9.10/v1',
      'http://[::1]:4010/v1',
      'http://[0:0:0:0:0:0:0:1]/v1',
      'http://[::ffff:127.0.0.1]:4010/v1',
      'http://localhost:4010/v1',
      'http://LOCALHOST.:4010/v1',
      'http://tunnel.localhost:4010/v1',
      'https://127.0.0.1:8443/v1',
    ]) {
      expect(await resolver.resolve(new URL(url)), url).toEqual([DIRECT]);
    }
    // and not what only looks like one
    for (const url of ['http://localhost.example.org/v1', 'http://128.0.0.1/v1', 'http://mylocalhost/v1']) {
      expect(await resolver.resolve(new URL(url)), url).toEqual([{ kind: 'http', host: '127.0.0.1', port: tap.port }]);
    }
    // a PAC answer (Electron asks Chromium) that names a proxy for loopback is not followed either
    const router = new ProxyRouter(
      { resolve: async () => [{ kind: 'http', host: '127.0.0.1', port: tap.port }] },
      async () => null,
      globalThis.fetch,
    );
    expect((await router.route(new URL('http://127.0.0.1:4010/v1/pets'))).label).toBe('DIRECT');
    await router.close();
  });

  it('a non-loopback http:// service is not sent through a plain proxy: refused, unsent, with a clear reason', async () => {
    const router = new ProxyRouter(
      envProxyResolver({ HTTP_PROXY: `http://${tap.address}` }),
      async () => null,
      globalThis.fetch,
    );
    const exchange = await sendHttp(
      {
        method: 'GET',
        url: new URL('http://animals.example:8080/v1/pets?limit=1'),
        bearerKey: KEY,
        keyOrigin: 'http://animals.example:8080',
      },
      { fetch: globalThis.fetch, route: (url) => router.route(url), clock: systemClock, totalTimeoutMs: 5000 },
    );
    await router.close();
    expect(tap.seen(), 'what the proxy received').not.toMatch(/authorization/i);
    expect(tap.seen()).not.toContain(KEY);
    expect(tap.connections()).toBe(0);
    expect(exchange).toMatchObject({
      kind: 'failure',
      error: {
        code: 'not_configured',
        notSent: true,
        message: expect.stringMatching(/http:\/\/animals\.example:8080.*127\.0\.0\.1:\d+.*https:\/\//s),
      },
    });
  });
});
