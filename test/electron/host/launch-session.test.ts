/**
 * The browser host is locked to whoever holds its one-time launch URL (issue 12, finding 2):
 * `GET /` without the launch secret, or with a used one, is refused with a page that says
 * how to open the app; the first load trades the secret for an HttpOnly, SameSite=Strict
 * session cookie; the app API and the event stream accept only that session. No page, header
 * or answer carries a token another local process could read.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../electron/core/api/event-bus';
import type { Router } from '../../../electron/core/api/router';
import { type BrowserHost, startBrowserHost } from '../../../electron/host';
import { ok } from '../../../src/shared/app-api/result';
import { FakeClock } from '../../support/fake-clock';
import { openSession, pathOf, send } from './host-http';

describe('browser host launch and session', () => {
  let rendererDir: string;
  let calls: string[];
  let host: BrowserHost;
  let clock: FakeClock;
  const own = () => new URL(host.url).host;
  const apiCall = (cookie: string | null, headers: Record<string, string> = {}) =>
    send(host, '/api/hasKey', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: `http://${own()}`,
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      body: '{"profileId":"local"}',
    });

  beforeEach(async () => {
    rendererDir = mkdtempSync(join(tmpdir(), 'adoption-renderer-'));
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body></body></html>',
    );
    writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
    calls = [];
    const router: Router = {
      async handle(channel) {
        calls.push(channel);
        return ok({ echoed: channel });
      },
    };
    clock = new FakeClock();
    host = await startBrowserHost({ router, events: createEventBus(), rendererDir, logError: () => {}, clock });
  });

  afterEach(async () => {
    await host.stop();
    rmSync(rendererDir, { recursive: true, force: true });
  });

  it('mints one-time launch URLs on its own origin, each with a fresh secret', () => {
    const first = new URL(host.createLaunchUrl());
    const second = new URL(host.createLaunchUrl());
    expect(first.origin).toBe(new URL(host.url).origin);
    expect(host.url).toMatch(new RegExp(`^http://[a-z0-9]+(-[a-z0-9]+)*\\.localhost:${host.port}/$`));
    expect(first.searchParams.get('launch')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.searchParams.get('launch')).not.toBe(second.searchParams.get('launch'));
  });

  it('lives at a name of its own under .localhost: its cookie goes to no other server on this computer', async () => {
    const reply = await send(host, pathOf(host.createLaunchUrl()));
    expect(reply.status).toBe(303);
    const cookie = reply.headers['set-cookie']?.[0] ?? '';
    // host-only: no Domain, so the browser sends it back to this name alone, never to 127.0.0.1
    expect(cookie).not.toMatch(/domain=/i);
    const session = cookie.split(';')[0] ?? '';
    for (const other of [`127.0.0.1:${host.port}`, `localhost:${host.port}`, `other.localhost:${host.port}`]) {
      const refused = await send(host, '/', { headers: { Host: other, Cookie: session } });
      expect(refused.status, other).toBe(403);
      expect(refused.body).toContain('Forbidden: foreign Host');
    }
    expect((await send(host, '/', { headers: { Cookie: session } })).status).toBe(200);
  });

  it('takes a launch link for two minutes and once', async () => {
    const late = host.createLaunchUrl();
    const inTime = host.createLaunchUrl();
    clock.advance(2 * 60_000 - 1);
    expect((await send(host, pathOf(inTime))).status).toBe(303);
    expect((await send(host, pathOf(inTime))).status).toBe(403);
    clock.advance(1);
    const expired = await send(host, pathOf(late));
    expect(expired.status).toBe(403);
    expect(expired.body).toContain('Open Adoption Desk from its own link');
  });

  it('counts the two minutes of a launch link in elapsed time: the clock set back or forward changes nothing', async () => {
    const late = host.createLaunchUrl();
    const inTime = host.createLaunchUrl();
    clock.jump(3_600_000); // set forward an hour: not expired
    clock.advance(2 * 60_000 - 1);
    expect((await send(host, pathOf(inTime))).status).toBe(303);
    clock.jump(-7_200_000); // set back two hours: not good for longer
    clock.advance(1);
    expect((await send(host, pathOf(late))).status).toBe(403);
  });

  it('refuses GET / without the launch secret with a page that says how to open the app', async () => {
    for (const path of ['/', '/index.html', '/assets/app.js', '/?launch=', `/?launch=${'A'.repeat(43)}`]) {
      const reply = await send(host, path);
      expect(reply.status, path).toBe(403);
      expect(reply.headers['set-cookie'], path).toBeUndefined();
      if (path.startsWith('/?') || path === '/') {
        expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(reply.body).toMatch(/npm run host/);
        expect(reply.body).toMatch(/one-time/);
      }
    }
  });

  it('trades the secret once for an HttpOnly SameSite=Strict session cookie and a clean URL', async () => {
    const launch = host.createLaunchUrl();
    const first = await send(host, pathOf(launch));
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = first.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^adoption-desk-session-${host.port}=[A-Za-z0-9_-]{43}; `));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    const again = await send(host, pathOf(launch));
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    const session = cookie.split(';')[0] ?? '';
    const page = await send(host, '/', { headers: { Cookie: session } });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('adoption-host-token');
    expect(page.body).not.toContain(session.split('=')[1]);
    expect((await send(host, '/assets/app.js', { headers: { Cookie: session } })).status).toBe(200);
  });

  it('serves the app API and the event stream to the session only', async () => {
    const session = await openSession(host);
    expect((await apiCall(null)).status).toBe(403);
    expect((await apiCall(`adoption-desk-session-${host.port}=${'x'.repeat(43)}`)).status).toBe(403);
    expect((await apiCall(session.replace(`-${host.port}=`, '-1='))).status).toBe(403);
    expect((await apiCall(null, { 'X-Adoption-Token': 'anything' })).status).toBe(403);
    expect(calls).toEqual([]);
    const answered = await apiCall(`theme=dark; ${session}`);
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body)).toEqual({ ok: true, data: { echoed: 'hasKey' } });
    expect((await send(host, '/events')).status).toBe(403);
    expect((await send(host, '/events?token=x')).status).toBe(403);
  });

  it('still refuses a session call with a foreign Origin or Host', async () => {
    const session = await openSession(host);
    expect((await apiCall(session, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await apiCall(session, { Host: 'evil.example' })).status).toBe(403);
    const page = await send(host, pathOf(host.createLaunchUrl()), { headers: { Host: `evil.example:${host.port}` } });
    expect(page.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it('redirects a used link to the app for the browser that holds the session', async () => {
    const launch = host.createLaunchUrl();
    const first = await send(host, pathOf(launch));
    const session = first.headers['set-cookie']?.[0]?.split(';')[0] ?? '';
    const reopened = await send(host, pathOf(launch), { headers: { Cookie: session } });
    expect(reopened.status).toBe(303);
    expect(reopened.headers['set-cookie']).toBeUndefined();
  });
});
