import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../../electron/core/event-bus';
import type { Router } from '../../../electron/core/router';
import { CONTENT_SECURITY_POLICY, startBrowserHost, type BrowserHost } from '../../../electron/host';
import { ok } from '../../../src/shared/result';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request, so tests can send any `Host` and `Origin` (fetch cannot). */
function send(
  host: BrowserHost,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const own = (host: BrowserHost) => `127.0.0.1:${host.port}`;
const bridgeCall = (host: BrowserHost, channel: string, body: unknown, headers: Record<string, string> = {}) =>
  send(host, `/bridge/${channel}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-Adoption-Token': host.token,
      Origin: `http://${own(host)}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });

/** Opens the event stream and collects `count` messages (after the stream says it is live). */
function collectEvents(
  host: BrowserHost,
  onLive: () => void,
  count: number,
): Promise<{ id: string; event: string; data: unknown }[]> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, path: `/events?token=${host.token}` }, (res) => {
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      let buffer = '';
      let live = false;
      const messages: { id: string; event: string; data: unknown }[] = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(': connected') && !live) {
            live = true;
            onLive();
            continue;
          }
          const fields = Object.fromEntries(
            block
              .split('\n')
              .filter((l) => !l.startsWith(':'))
              .map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
          );
          if (fields.event)
            messages.push({ id: fields.id ?? '', event: fields.event, data: JSON.parse(fields.data ?? 'null') });
          if (messages.length === count) {
            req.destroy();
            resolve(messages);
          }
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser host', () => {
  let rendererDir: string;
  let bus: EventBus;
  let calls: [string, unknown][];
  let host: BrowserHost;

  beforeEach(async () => {
    rendererDir = mkdtempSync(join(tmpdir(), 'adoption-renderer-'));
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body></body></html>',
    );
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(rendererDir, 'assets', 'app.css'), 'body{}');
    writeFileSync(join(tmpdir(), 'adoption-outside.txt'), 'secret');
    bus = createEventBus();
    calls = [];
    const router: Router = {
      async handle(channel, input) {
        calls.push([channel, input]);
        return ok({ echoed: channel });
      },
    };
    host = await startBrowserHost({ router, events: bus, rendererDir, logError: () => {} });
  });

  afterEach(async () => {
    await host.stop();
    rmSync(rendererDir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1 with a 64-hex-digit per-launch token', () => {
    expect(host.url).toBe(`http://127.0.0.1:${host.port}/`);
    expect(host.token).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers a bridge call with the router result envelope', async () => {
    const reply = await bridgeCall(host, 'hasKey', { profileId: 'local' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({ ok: true, data: { echoed: 'hasKey' } });
    expect(calls).toEqual([['hasKey', { profileId: 'local' }]]);
  });

  it('refuses a bridge call without the token', async () => {
    const reply = await send(host, '/bridge/hasKey', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('refuses a bridge call with a wrong token (same length and other length)', async () => {
    for (const wrong of ['0'.repeat(64), host.token.slice(0, 10), `${host.token}0`]) {
      expect((await bridgeCall(host, 'hasKey', {}, { 'X-Adoption-Token': wrong })).status).toBe(403);
    }
    expect(calls).toEqual([]);
  });

  it('refuses a bridge call with a foreign Origin, even with the token', async () => {
    for (const origin of ['http://evil.example', `http://${own(host)}.evil.example`, `https://${own(host)}`, 'null']) {
      expect((await bridgeCall(host, 'hasKey', {}, { Origin: origin })).status).toBe(403);
    }
    expect(calls).toEqual([]);
  });

  it('refuses any request with a foreign Host (DNS rebinding), even the page itself', async () => {
    for (const hostHeader of ['evil.example', `evil.example:${host.port}`, '127.0.0.1:1']) {
      expect((await bridgeCall(host, 'hasKey', {}, { Host: hostHeader })).status).toBe(403);
      const page = await send(host, '/', { headers: { Host: hostHeader } });
      expect(page.status).toBe(403);
      expect(page.body).not.toContain(host.token);
    }
    expect(calls).toEqual([]);
  });

  it('accepts localhost:<port> as its own host', async () => {
    const reply = await bridgeCall(
      host,
      'hasKey',
      {},
      { Host: `localhost:${host.port}`, Origin: `http://localhost:${host.port}` },
    );
    expect(reply.status).toBe(200);
  });

  it('refuses the event stream without or with a wrong token', async () => {
    expect((await send(host, '/events')).status).toBe(403);
    expect((await send(host, `/events?token=${'f'.repeat(64)}`)).status).toBe(403);
  });

  it('answers bad JSON with an invalid_request envelope, a huge body with 413, a wrong type with 415', async () => {
    const headers = { 'Content-Type': 'application/json', 'X-Adoption-Token': host.token };
    const bad = await send(host, '/bridge/hasKey', { method: 'POST', headers, body: '{nope' });
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const huge = await send(host, '/bridge/hasKey', {
      method: 'POST',
      headers,
      body: `"${'x'.repeat(1024 * 1024 + 10)}"`,
    });
    expect(huge.status).toBe(413);
    const form = await send(host, '/bridge/hasKey', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    expect(calls).toEqual([]);
  });

  it('answers 404 for unknown paths and 405 for a GET on the bridge', async () => {
    expect((await send(host, '/nothing-here.js')).status).toBe(404);
    expect((await send(host, '/bridge/x/y', { method: 'POST' })).status).toBe(404);
    expect((await send(host, '/bridge/hasKey')).status).toBe(405);
  });

  it('answers a missing favicon with 204 rather than 404 (browsers ask for it on their own)', async () => {
    expect((await send(host, '/favicon.ico')).status).toBe(204);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of [
      '/../adoption-outside.txt',
      '/%2e%2e/adoption-outside.txt',
      '/assets/..%2f..%2fadoption-outside.txt',
      '/%00',
    ]) {
      const reply = await send(host, path);
      expect(reply.status, path).toBe(404);
      expect(reply.body).not.toContain('secret');
    }
  });

  it('serves index.html with the token meta, the CSP and no-store', async () => {
    const reply = await send(host, '/');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body).toContain(`<meta name="adoption-host-token" content="${host.token}" />`);
  });

  it('serves assets with their content types', async () => {
    expect((await send(host, '/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await send(host, '/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('streams events in emit order with increasing ids', async () => {
    const emitted = Array.from({ length: 30 }, (_, i) => ({ profileId: 'local', online: i % 2 === 0, at: i }));
    const received = await collectEvents(
      host,
      () => {
        emitted.forEach((payload) => bus.emit('connectivity', payload));
        bus.emit('profiles', { profiles: [], notice: null });
      },
      31,
    );
    expect(received.map((m) => m.data)).toEqual([...emitted, { profiles: [], notice: null }]);
    expect(received.map((m) => m.event)).toEqual([...emitted.map(() => 'connectivity'), 'profiles']);
    expect(received.map((m) => Number(m.id))).toEqual(received.map((_, i) => i + 1));
  });
});

describe('browser host over the built renderer', () => {
  const built = join(process.cwd(), 'out', 'renderer', 'index.html');
  const present = existsSync(built);
  if (!present) console.log(`Skipping the built-renderer check: ${built} is missing (run npx electron-vite build).`);

  it.skipIf(!present)('serves out/renderer/index.html with the CSP header and the token', async () => {
    const host = await startBrowserHost({ router: { handle: async () => ok(null) }, events: createEventBus() });
    try {
      const reply = await send(host, '/');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.body).toContain(`content="${host.token}"`);
      const script = /<script[^>]+src="([^"]+)"/.exec(reply.body)?.[1];
      expect(script, 'the built page loads a module script').toBeDefined();
      const asset = await send(host, new URL(script ?? '', host.url).pathname);
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    } finally {
      await host.stop();
    }
  });
});
