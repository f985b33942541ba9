/**
 * The fetch loop's redirect and cache rules over Node's real `fetch` (what the app uses in
 * Electron's main process, electron/main/index.ts) against local servers, and over a
 * browser-style `fetch` that hides redirects (`opaqueredirect`).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpExchange, MESSAGES, sendHttp } from '../../../../electron/core/http/http-client';
import { FakeClock } from '../../../support/fake-clock';

const KEY = 'sk_redirect_test_key';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

async function listen(handle: (request: IncomingMessage, body: string) => [number, Record<string, string>]) {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      });
      const [status, headers] = handle(request, body);
      response.writeHead(status, headers).end(status === 200 ? '{"ok":true}' : '');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, seen, base };
}

let elsewhere: Awaited<ReturnType<typeof listen>>;
let service: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  elsewhere = await listen(() => [200, { 'Content-Type': 'application/json' }]);
  service = await listen((request) => {
    if (request.url === '/v1/moved') return [302, { Location: '/v1/pets' }];
    if (request.url === '/v1/created') return [303, { Location: '/v1/pets/1' }];
    if (request.url === '/v1/away') return [307, { Location: `${elsewhere.base}/steal` }];
    return [200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=3600' }];
  });
});
afterAll(() => {
  service.server.close();
  elsewhere.server.close();
});

function send(path: string, method: 'GET' | 'POST' = 'GET', doFetch: typeof fetch = fetch): Promise<HttpExchange> {
  return sendHttp(
    {
      method,
      url: new URL(`${service.base}${path}`),
      bearerKey: KEY,
      keyOrigin: new URL(service.base).origin,
      ...(method === 'POST' ? { body: '{}' } : {}),
    },
    { fetch: doFetch, clock: new FakeClock() },
  );
}

describe('the fetch loop over Node fetch', () => {
  it('follows a redirect within the origin, with the key again', async () => {
    service.seen.length = 0;
    expect(await send('/v1/moved')).toMatchObject({ kind: 'response', response: { status: 200 } });
    expect(service.seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['GET', '/v1/moved', `Bearer ${KEY}`],
      ['GET', '/v1/pets', `Bearer ${KEY}`],
    ]);
  });

  it('turns a POST answered with 303 into a GET without the body', async () => {
    service.seen.length = 0;
    await send('/v1/created', 'POST');
    expect(service.seen.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/v1/created', '{}'],
      ['GET', '/v1/pets/1', ''],
    ]);
  });

  it('refuses a redirect to another origin: that origin receives nothing', async () => {
    elsewhere.seen.length = 0;
    const exchange = await send('/v1/away');
    expect(exchange).toMatchObject({ kind: 'failure', error: { code: 'bad_response', message: MESSAGES.redirect } });
    expect(elsewhere.seen).toEqual([]);
  });

  it('asks every request not to be cached, and redirects to be handed back', async () => {
    const inits: RequestInit[] = [];
    const recording: typeof fetch = (input, init) => {
      inits.push(init ?? {});
      return fetch(input, init);
    };
    await send('/v1/moved', 'GET', recording);
    expect(inits.map((init) => [init.redirect, (init as { cache?: string }).cache])).toEqual([
      ['manual', 'no-store'],
      ['manual', 'no-store'],
    ]);
  });
});

describe('the fetch loop over a browser-style fetch', () => {
  it('refuses an opaque redirect (no Location to check) instead of reading it as an answer', async () => {
    let calls = 0;
    const browserStyle: typeof fetch = async () => {
      calls += 1;
      const hidden = new Response(null, { status: 200 });
      Object.defineProperty(hidden, 'type', { value: 'opaqueredirect' });
      Object.defineProperty(hidden, 'status', { value: 0 });
      return hidden;
    };
    const exchange = await send('/v1/moved', 'GET', browserStyle);
    expect(exchange).toMatchObject({ kind: 'failure', error: { code: 'bad_response', message: MESSAGES.redirect } });
    expect(calls).toBe(1);
  });
});
