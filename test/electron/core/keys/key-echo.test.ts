/**
 * A service that echoes the API key everywhere it can (error code, message, service code,
 * rate-limit and deprecation headers, the orders body, animal names, body chunks cut inside
 * the key) never gets it, or any part of it, onto anything the core hands the renderer:
 * channel results, events, diagnostics, the orders view. Through the app core's router
 * over real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';

const RESOURCES = resolve(import.meta.dirname, '../../../resources');
const KEY = 'sk_live_4f9c2a7e81d3b6058e1a9c7f2d4b6e80';

/**
 * Every 8-character piece of the key, whole, URI-encoded or JSON-escaped. The service here echoes
 * only whole keys: a piece on anything the core hands out would be one the core cut (a quote cut
 * to length, a header bounded) before hiding the key, which it must never do.
 */
const PIECE = 8;
function pieces(key: string): string[] {
  const forms = [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)];
  return forms.flatMap((form) => Array.from({ length: form.length - PIECE + 1 }, (_, i) => form.slice(i, i + PIECE)));
}

interface Echo {
  /** Characters before the key in error messages (to put the key across every cut). */
  offset: number;
}

/** Writes `text` in 3-byte chunks, so chunk boundaries fall inside the key. */
function sendChunked(response: ServerResponse, status: number, headers: Record<string, string>, text: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += 3) response.write(bytes.subarray(at, at + 3));
  response.end();
}

function echoingService(echo: Echo): Server {
  return createServer((request: IncomingMessage, response: ServerResponse) => {
    const authorization = request.headers.authorization ?? '';
    const key = authorization.replace(/^Bearer /, '');
    const headers = {
      'X-RateLimit-Limit': authorization,
      'X-RateLimit-Remaining': `${'9'.repeat(echo.offset % 50)}${key}`,
      'X-RateLimit-Reset': key,
      Deprecation: `@${key}`,
      Sunset: authorization,
    };
    const path = request.url ?? '/';
    const message = `${'m'.repeat(echo.offset)}${authorization} was sent`;
    if (path.startsWith('/v1/store/orders')) {
      // the key also in base64 (standard and URL-safe, as in a Basic token), lower-case
      // percent-encoding and HTML entities: Store orders shows whatever JSON the service returns
      return sendChunked(
        response,
        200,
        headers,
        JSON.stringify({
          echoedAuthorization: authorization,
          [key]: [key],
          basic: `Basic ${Buffer.from(`user:${key}`).toString('base64')}`,
          urlSafe: Buffer.from(`x${key}`).toString('base64url'),
          percent: [...Buffer.from(key)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
          html: key.replace(/_/g, '&#95;'),
        }),
      );
    }
    if (path.startsWith('/v1/pets/1')) {
      return sendChunked(
        response,
        200,
        headers,
        JSON.stringify({ id: 1, name: key, categoryId: 2, tag: authorization }),
      );
    }
    if (request.method === 'POST') {
      return sendChunked(response, 500, headers, JSON.stringify({ code: `e_${key}`, message, status: 500 }));
    }
    if (path.includes('limit=1&')) {
      return sendChunked(response, 200, headers, JSON.stringify([{ id: 7, name: `Rex ${key}`, categoryId: 1 }]));
    }
    return sendChunked(response, 400, headers, JSON.stringify({ code: `${key}`, message, status: 400 }));
  });
}

describe('a service that echoes the key', () => {
  let dataDir: string;
  let server: Server;
  let core: AppCore;
  const echo: Echo = { offset: 0 };
  const seen: unknown[] = [];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-echo-'));
    server = echoingService(echo);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore: new MemorySecretStore(),
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: `http://127.0.0.1:${port}/v1`,
      logError: (message) => seen.push(message),
      // its rate headers are echoes, not counts: without this the governor would pace the 45
      // requests at the smallest plan's one per second (adaptive-rate.ts), which is not tested here
      assumedRate: 1000,
    });
    core.events.subscribe((event, payload) => seen.push({ event, payload }));
  });

  afterEach(async () => {
    await core.dispose();
    await new Promise<void>((done) => server.close(() => done()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never gets any part of it onto a channel result, an event, diagnostics or the orders view', async () => {
    const call = async (channel: string, input: unknown) => {
      const result = await core.router.handle(channel, input);
      seen.push(result);
      return result;
    };
    expect(await call('setKey', { profileId: 'local', key: KEY })).toEqual({ ok: true, data: { saved: true } });
    const refused = await call('listPets', { profileId: 'local', query: { limit: 5 } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid' } });
    // the key across the 300-character cut of the quoted service message, at every position
    for (let offset = 300 - KEY.length - 8; offset <= 300; offset += 1) {
      echo.offset = offset;
      await call('listPets', { profileId: 'local', query: { limit: 20 } });
    }
    expect(await call('listPets', { profileId: 'local', query: { limit: 1, status: 'available' } })).toMatchObject({
      ok: true,
    });
    expect(await call('getPet', { profileId: 'local', id: '1' })).toMatchObject({ ok: true });
    const created = await call('createPet', {
      profileId: 'local',
      animal: { name: 'Rex', categoryId: '1' },
      idempotencyKey: '4b3f2a7e-3c1d-4e5f-9a8b-7c6d5e4f3a2b',
    });
    expect(created).toMatchObject({ ok: false, error: { code: 'server_error' } });
    const orders = await call('ordersRaw', { profileId: 'local' });
    expect(orders).toMatchObject({ ok: true, data: { body: { echoedAuthorization: 'Bearer [hidden key]' } } });
    const body = (orders.ok ? (orders.data as { body: Record<string, string> }).body : {}) as Record<string, string>;
    for (const field of ['basic', 'urlSafe', 'percent', 'html']) expect(body[field], field).toContain('[hidden key]');
    await call('testKey', { profileId: 'local' });
    await call('governorSnapshot', { profileId: 'local' });
    const diagnostics = await call('diagnostics', {});
    expect(diagnostics.ok && (diagnostics.data as { entries: unknown[] }).entries.length).toBeGreaterThan(40);

    const everything = JSON.stringify(seen);
    for (const piece of pieces(KEY)) {
      const at = everything.indexOf(piece);
      expect(everything, `"${piece}" reached the renderer: …${everything.slice(at - 200, at + 60)}…`).not.toContain(
        piece,
      );
    }
  });
});
