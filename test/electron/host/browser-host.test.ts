import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventBus, type EventBus } from '../../../electron/core/api/event-bus';
import type { Router } from '../../../electron/core/api/router';
import { type BrowserHost, CONTENT_SECURITY_POLICY, startBrowserHost } from '../../../electron/host';
import { ok } from '../../../src/shared/app-api/result';
import { openSession, send } from './host-http';

const own = (host: BrowserHost) => new URL(host.url).host;
let session = '';
const apiCall = (host: BrowserHost, channel: string, body: unknown, headers: Record<string, string> = {}) =>
  send(host, `/api/${channel}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Cookie: session,
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
    const req = httpRequest(
      { host: '127.0.0.1', port: host.port, path: '/events', headers: { Host: own(host), Cookie: session } },
      (res) => {
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
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('browser host', () => {
  let base: string;
  let rendererDir: string;
  let bus: EventBus;
  let calls: [string, unknown][];
  let host: BrowserHost;

  beforeEach(async () => {
    // The renderer folder inside a folder of this test's own, beside a file it must never serve.
    base = mkdtempSync(join(tmpdir(), 'adoption-renderer-'));
    rendererDir = join(base, 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body></body></html>',
    );
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(rendererDir, 'assets', 'app.css'), 'body{}');
    writeFileSync(join(rendererDir, 'assets', 'start-D5NPy3A9.js'), 'console.log(2)');
    writeFileSync(join(rendererDir, 'assets', 'SetAsideRecords--5Q1UkzV.js'), 'console.log(3)');
    writeFileSync(join(base, 'adoption-outside.txt'), 'secret');
    bus = createEventBus();
    calls = [];
    const router: Router = {
      async handle(channel, input) {
        calls.push([channel, input]);
        return ok({ echoed: channel });
      },
    };
    host = await startBrowserHost({ router, events: bus, rendererDir, logError: () => {} });
    session = await openSession(host);
  });

  afterEach(async () => {
    await host.stop();
    rmSync(base, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1, at a name of its own under .localhost', () => {
    expect(host.url).toMatch(new RegExp(`^http://ad-[a-z0-9]{16}\\.localhost:${host.port}/$`));
  });

  it('answers an API call with the router result envelope', async () => {
    const reply = await apiCall(host, 'hasKey', { profileId: 'local' });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(reply.body)).toEqual({ ok: true, data: { echoed: 'hasKey' } });
    expect(calls).toEqual([['hasKey', { profileId: 'local' }]]);
  });

  it('refuses an API call without the session', async () => {
    const reply = await send(host, '/api/hasKey', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('refuses an API call with a foreign Origin, even with the session', async () => {
    for (const origin of ['http://evil.example', `http://${own(host)}.evil.example`, `https://${own(host)}`, 'null']) {
      expect((await apiCall(host, 'hasKey', {}, { Origin: origin })).status).toBe(403);
    }
    expect(calls).toEqual([]);
  });

  it('refuses any request with a foreign Host (DNS rebinding), even the page itself', async () => {
    for (const hostHeader of ['evil.example', `evil.example:${host.port}`, '127.0.0.1:1', `127.0.0.1:${host.port}`]) {
      expect((await apiCall(host, 'hasKey', {}, { Host: hostHeader })).status).toBe(403);
      const page = await send(host, '/', { headers: { Host: hostHeader, Cookie: session } });
      expect(page.status).toBe(403);
    }
    expect(calls).toEqual([]);
  });

  it('answers at its own name only: localhost:<port> is another site a cookie would be shared with', async () => {
    const reply = await apiCall(
      host,
      'hasKey',
      {},
      { Host: `localhost:${host.port}`, Origin: `http://localhost:${host.port}` },
    );
    expect(reply.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('refuses the event stream without the session', async () => {
    expect((await send(host, '/events')).status).toBe(403);
    expect((await send(host, '/events', { headers: { Cookie: `${session}0` } })).status).toBe(403);
  });

  it('answers bad JSON with an invalid_request envelope, a huge body with 413, a wrong type with 415', async () => {
    const headers = { 'Content-Type': 'application/json', Cookie: session };
    const bad = await send(host, '/api/hasKey', { method: 'POST', headers, body: '{nope' });
    expect(bad.status).toBe(200);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const huge = await send(host, '/api/hasKey', {
      method: 'POST',
      headers,
      body: `"${'x'.repeat(1024 * 1024 + 10)}"`,
    });
    expect(huge.status).toBe(413);
    // Without a Content-Length the limit is found while reading the body: still a 413.
    const streamed = await send(host, '/api/hasKey', {
      method: 'POST',
      headers: { ...headers, 'Transfer-Encoding': 'chunked' },
      body: `"${'x'.repeat(1024 * 1024 + 10)}"`,
    });
    expect(streamed.status).toBe(413);
    const form = await send(host, '/api/hasKey', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(form.status).toBe(415);
    expect(calls).toEqual([]);
  });

  it('answers 404 for unknown paths and 405 for a GET on the API', async () => {
    const headers = { Cookie: session };
    expect((await send(host, '/nothing-here.js', { headers })).status).toBe(404);
    expect((await send(host, '/api/x/y', { method: 'POST', headers })).status).toBe(404);
    expect((await send(host, '/api/hasKey', { headers })).status).toBe(405);
  });

  it('answers a missing favicon with 204 rather than 404 (browsers ask for it on their own)', async () => {
    expect((await send(host, '/favicon.ico', { headers: { Cookie: session } })).status).toBe(204);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of [
      '/../adoption-outside.txt',
      '/%2e%2e/adoption-outside.txt',
      '/assets/..%2f..%2fadoption-outside.txt',
      '/%00',
    ]) {
      const reply = await send(host, path, { headers: { Cookie: session } });
      expect(reply.status, path).toBe(404);
      expect(reply.body).not.toContain('secret');
    }
  });

  it('serves index.html as built (no token in it), with the CSP and no-store', async () => {
    const reply = await send(host, '/', { headers: { Cookie: session } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body).toBe('<!doctype html><html><head><title>t</title></head><body></body></html>');
  });

  it('serves assets with their content types', async () => {
    const headers = { Cookie: session };
    expect((await send(host, '/assets/app.js', { headers })).headers['content-type']).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await send(host, '/assets/app.css', { headers })).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('lets a browser keep the files the build names by their content, and asks again for any other', async () => {
    const headers = { Cookie: session };
    const cacheOf = async (path: string) => (await send(host, path, { headers })).headers['cache-control'];
    // A new build gives a changed file a new name, so these never need asking for again.
    expect(await cacheOf('/assets/start-D5NPy3A9.js')).toBe('private, max-age=31536000, immutable');
    expect(await cacheOf('/assets/SetAsideRecords--5Q1UkzV.js')).toBe('private, max-age=31536000, immutable');
    expect(await cacheOf('/assets/app.js')).toBe('no-cache');
    expect(await cacheOf('/assets/app.css')).toBe('no-cache');
    expect(await cacheOf('/')).toBe('no-store');
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

  it.skipIf(!present)('serves out/renderer/index.html with the CSP header to a session', async () => {
    const host = await startBrowserHost({ router: { handle: async () => ok(null) }, events: createEventBus() });
    try {
      const headers = { Cookie: await openSession(host) };
      const reply = await send(host, '/', { headers });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.body).not.toContain('adoption-host-token');
      const script = /<script[^>]+src="([^"]+)"/.exec(reply.body)?.[1];
      expect(script, 'the built page loads a module script').toBeDefined();
      const asset = await send(host, new URL(script ?? '', host.url).pathname, { headers });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(asset.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      // The start-up's chunks (the entry and the steps it preloads) ask V8 to compile every function at
      // once (explicit compile hints, electron.vite.config.ts); a screen loaded later does not.
      const preloaded = [...reply.body.matchAll(/<link rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]!);
      expect(preloaded.length).toBeGreaterThan(0);
      const hinted = [script ?? '', ...preloaded].filter((path) => /\/(index|start|app)-[\w-]{8}\.js$/.test(path));
      expect(hinted).toHaveLength(3); // the others preloaded are two lines re-exporting a step from `app`
      for (const path of hinted) {
        const chunk = await send(host, new URL(path, host.url).pathname, { headers });
        expect(chunk.body.startsWith('//# allFunctionsCalledOnLoad\n'), path).toBe(true);
      }
      const assets = readdirSync(join(process.cwd(), 'out', 'renderer', 'assets'));
      const screen = assets.find((file) => file.startsWith('AddAnimalScreen-'));
      const lazy = await send(host, `/assets/${screen}`, { headers });
      expect(lazy.status).toBe(200);
      expect(lazy.body).not.toContain('allFunctionsCalledOnLoad');
    } finally {
      await host.stop();
    }
  });
});
