/**
 * Issue 31, item 10: the browser host recovers once the queue an earlier version left at its old
 * address, http://127.0.0.1:PORT, through a one-time page served there for the session a launch
 * link created (electron/host/earlier-origin.ts). Over real HTTP, as the browser and anyone else on
 * this computer could send it: the launch detour, the page and its script at the earlier origin
 * only with the token, the hand over once and only from that origin, each entry kept once in the
 * safety copy (in doubt where it may have been sent), rows it cannot read kept in a file, and every
 * other request at 127.0.0.1 refused as before. The page's script itself runs in Chromium in
 * test/e2e/update-earlier-queue.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { type AppOnHost, startAppOnHost } from '../../../electron/host';
import {
  EARLIER_PAGE_SCRIPT,
  EARLIER_SET_ASIDE_DIR,
  EARLIER_STATE_FILE,
  planEarlierRecovery,
} from '../../../electron/host/earlier-origin';
import { HOST_PORT_FILE } from '../../../electron/host/host-port';
import type { SafetyEntry } from '../../../src/shared/app-api/api';
import { freePort } from '../../support/free-port';
import { pathOf, type Reply, send } from './host-http';

const RESOURCES = join(import.meta.dirname, '../../../resources');

/** An open entry of the safety copy, as the `safetyCopy` channel answers it. */
type Kept = SafetyEntry & { doubtSince: number | null; fromEarlierVersion?: true };

/** An outbox row as the earlier versions stored it (Dexie version 7). */
function row(name: string, state = 'queued', extra: Record<string, unknown> = {}) {
  return {
    localId: randomUUID(),
    idempotencyKey: randomUUID(),
    pet: { name, categoryId: '7' },
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    state,
    attempts: 0,
    lastError: null,
    serverId: state === 'sent' ? '41' : null,
    nextAttemptAt: null,
    failures: 0,
    doubtSince: null,
    check: null,
    notOurs: [],
    seq: 1,
    ...extra,
  };
}

describe('recovering an earlier version’s queue', () => {
  let dataDir: string;
  let app: AppOnHost | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-earlier-'));
  });

  afterEach(async () => {
    await app?.stop();
    app = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A data folder an earlier version at 127.0.0.1 left (`browser-host.json` version 1), or one of `version`. */
  async function leftBy(version: 1 | 2): Promise<number> {
    const port = await freePort();
    writeFileSync(
      join(dataDir, HOST_PORT_FILE),
      JSON.stringify(version === 1 ? { version, port } : { version, port, site: 'ad-0123456789abcdef' }),
    );
    return port;
  }

  const start = async () => {
    app = await startAppOnHost({
      dataDir,
      secretStore: new MemorySecretStore(),
      resourcesDir: RESOURCES,
      stablePort: true,
      logError: () => {},
    });
    return app;
  };

  const atEarlier = (port: number, path: string, init: Parameters<typeof send>[2] = {}) =>
    send({ port, url: `http://127.0.0.1:${port}/` }, path, init);

  const handOver = (port: number, body: unknown, origin = `http://127.0.0.1:${port}`) =>
    atEarlier(port, '/earlier-version', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify(body),
    });

  /** Opens a launch link as the browser does; returns the redirect's target and the session cookie. */
  async function launch(host: AppOnHost): Promise<{ location: string; reply: Reply }> {
    const reply = await send(host.host, pathOf(host.host.createLaunchUrl()));
    return { location: String(reply.headers.location), reply };
  }

  const tokenOf = (location: string) => new URL(location).searchParams.get('token') ?? '';

  const journal = async (host: AppOnHost) => {
    const read = await host.core.router.handle('safetyCopy', { profileId: 'local' });
    if (!read.ok) throw new Error(read.error.message);
    return (read.data as { entries: Kept[] }).entries;
  };

  it('decides once, before browser-host.json is rewritten, whether there is a queue to look for', async () => {
    expect(await planEarlierRecovery(dataDir, null)).toMatchObject({ state: 'done' });
    rmSync(join(dataDir, EARLIER_STATE_FILE));
    expect(await planEarlierRecovery(dataDir, { port: 4321, site: null })).toMatchObject({
      state: 'pending',
      port: 4321,
      certain: true,
    });
    // read back as written, whatever the address says now
    expect(await planEarlierRecovery(dataDir, { port: 4321, site: 'ad-x' })).toMatchObject({ certain: true });
    rmSync(join(dataDir, EARLIER_STATE_FILE));
    expect(await planEarlierRecovery(dataDir, { port: 4321, site: 'ad-x' })).toMatchObject({
      state: 'pending',
      certain: false,
    });
  });

  it('serves a script that parses as plain JavaScript (no build step; it runs in Chromium in the e2e update test)', () => {
    expect(() => new Function(EARLIER_PAGE_SCRIPT)).not.toThrow();
    expect(EARLIER_PAGE_SCRIPT).not.toMatch(/\$\{/);
  });

  it('a data folder new to the host looks for nothing: its launch goes straight to the app', async () => {
    const host = await start();
    const { location, reply } = await launch(host);
    expect(reply.status).toBe(303);
    expect(location).toBe('/');
    expect(JSON.parse(readFileSync(join(dataDir, EARLIER_STATE_FILE), 'utf8'))).toMatchObject({ state: 'done' });
  });

  it('goes through the earlier origin once, keeps each unsent entry once, and only then lets the page clear it', async () => {
    const port = await leftBy(1);
    const host = await start();
    expect(host.host.port).toBe(port);
    const { location, reply } = await launch(host);
    expect(reply.status).toBe(303);
    expect(reply.headers['set-cookie']?.[0]).toMatch(/^adoption-desk-session-\d+=/);
    expect(location).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/earlier-version\\?token=[\\w-]{43}$`));
    const token = tokenOf(location);

    // the page and its script, at the earlier origin, with the token only
    const page = await atEarlier(port, pathOf(location));
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain(`<script src="/earlier-version.js?token=${token}" defer></script>`);
    expect(page.body).not.toMatch(/<script>/);
    expect((await atEarlier(port, `/earlier-version.js?token=${token}`)).status).toBe(200);
    expect((await atEarlier(port, '/earlier-version?token=nope')).status).toBe(403);
    expect((await atEarlier(port, '/earlier-version')).status).toBe(403);
    // everything else at 127.0.0.1 stays refused, and the earlier page is nowhere else
    for (const path of ['/', '/index.html', `/?launch=x`, '/events'])
      expect((await atEarlier(port, path)).status).toBe(403);
    expect((await send({ port, url: `http://[::1]:${port}/` }, pathOf(location))).status).toBe(403);
    expect((await send(host.host, pathOf(location))).status).toBe(403);

    // the hand over: from the earlier origin alone
    const [olive, basil, sage, sent] = [row('Olive'), row('Basil', 'sending'), row('Sage'), row('Sent', 'sent')];
    const databases = [{ name: 'adoption-desk.local', rows: [olive, basil, sage, sent, { localId: 9, junk: true }] }];
    expect((await handOver(port, { token, databases }, 'http://evil.example')).status).toBe(403);
    expect((await handOver(port, { token, databases }, host.host.url.slice(0, -1))).status).toBe(403);
    const answer = await handOver(port, { token, databases });
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body) as { back: string; clear: Record<string, unknown[]>; recovered: number };
    expect(body.recovered).toBe(3);
    expect(new Set(body.clear['adoption-desk.local'])).toEqual(
      new Set([olive.localId, basil.localId, sage.localId, sent.localId, 9]),
    );
    expect(new URL(body.back).origin).toBe(new URL(host.host.url).origin);

    // in the safety copy: each with its own ids, flagged; the one that was being sent comes back in doubt
    const kept = await journal(host);
    expect(kept.map((entry) => [entry.animal.name, entry.localId, entry.idempotencyKey])).toEqual(
      [olive, basil, sage].map((r) => [r.pet.name, r.localId, r.idempotencyKey]),
    );
    expect(kept.every((entry) => entry.fromEarlierVersion === true)).toBe(true);
    expect(kept.map((entry) => entry.doubtSince !== null)).toEqual([false, true, false]);
    // the row it could not read, kept as it was
    const files = readdirSync(join(dataDir, EARLIER_SET_ASIDE_DIR));
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(dataDir, EARLIER_SET_ASIDE_DIR, files[0] ?? ''), 'utf8'))).toMatchObject({
      profileId: 'local',
      rows: [{ localId: 9, junk: true }],
    });

    // once: the token is spent, and the link handed back (from another site) goes to the app itself
    expect((await handOver(port, { token, databases })).status).toBe(403);
    const back = await send(host.host, pathOf(body.back), { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(back.status).toBe(200);
    expect(back.headers['set-cookie']?.[0]).toMatch(/^adoption-desk-session-\d+=/);
    expect(back.body).toContain('<meta http-equiv="refresh" content="0;url=/">');
    expect(JSON.parse(readFileSync(join(dataDir, EARLIER_STATE_FILE), 'utf8'))).toMatchObject({
      state: 'done',
      recovered: 3,
    });
    expect((await launch(host)).location).toBe('/');
    expect((await atEarlier(port, pathOf(location))).status).toBe(403);
    await host.stop();
    app = null;

    // and after a restart: nothing more is looked for, nothing kept twice
    const again = await start();
    expect((await launch(again)).location).toBe('/');
    expect(await journal(again)).toHaveLength(3);
  });

  it('after a version at the new name ran without this recovery, every recovered entry comes back in doubt', async () => {
    const port = await leftBy(2);
    const host = await start();
    const token = tokenOf((await launch(host)).location);
    const answer = await handOver(port, { token, databases: [{ name: 'adoption-desk.local', rows: [row('Olive')] }] });
    expect(JSON.parse(answer.body)).toMatchObject({ recovered: 1 });
    const [olive] = await journal(host);
    expect(olive?.doubtSince).not.toBeNull();
  });

  it('a browser that could not read its storage: nothing is lost, the next launch tries again, then stops asking', async () => {
    const port = await leftBy(1);
    const host = await start();
    for (let look = 1; look <= 3; look += 1) {
      const { location } = await launch(host);
      expect(location, `look ${look}`).toContain('/earlier-version?token=');
      const answer = await handOver(port, { token: tokenOf(location), failed: 'UnknownError' });
      expect(JSON.parse(answer.body)).toMatchObject({ error: expect.stringContaining('Nothing was lost') });
      // the link back never starts another detour
      const back = JSON.parse(answer.body) as { back: string };
      expect((await send(host.host, pathOf(back.back))).headers.location).toBe('/');
    }
    expect((await launch(host)).location).toBe('/');
  });

  it('a profile this version does not have: its rows are kept as they were, in a file', async () => {
    const port = await leftBy(1);
    const host = await start();
    const token = tokenOf((await launch(host)).location);
    const olive = row('Olive');
    const answer = await handOver(port, { token, databases: [{ name: 'adoption-desk.gone', rows: [olive] }] });
    expect(JSON.parse(answer.body)).toMatchObject({ recovered: 0, clear: { 'adoption-desk.gone': [olive.localId] } });
    expect(existsSync(join(dataDir, EARLIER_SET_ASIDE_DIR))).toBe(true);
    const [file] = readdirSync(join(dataDir, EARLIER_SET_ASIDE_DIR));
    expect(readFileSync(join(dataDir, EARLIER_SET_ASIDE_DIR, file ?? ''), 'utf8')).toContain(olive.localId);
  });
});
