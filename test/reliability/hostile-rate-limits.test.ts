/**
 * Issue 7.3, rate-limit headers: a hostile server's odd `Retry-After` / `X-RateLimit-*`
 * values over real HTTP, our real client + governor on a fake clock. Each 429 gives a sane
 * wait, read from the governor's snapshot (pausedUntil, pauseReason, notice), not by
 * waiting; nothing is sent before it ends, and the request is then served.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { MAX_WAIT_MS } from '../../electron/core/rate-limit/rate-limit-headers';
import { FakeClock } from '../support/fake-clock';
import { type CannedReply, type HostileServer, startHostileServer } from './hostile-server';
import { hostileClient, watchProcess } from './support/hostile-client';

const clock = new FakeClock();
const START = clock.now();
let server: HostileServer;
const watch = watchProcess();

beforeAll(async () => {
  server = await startHostileServer({ now: () => clock.now() });
});
afterAll(async () => {
  await server.stop();
  watch.stop();
  expect(watch.problems).toEqual([]);
});

const OK_LIST: CannedReply = { status: 200, headers: { 'Content-Type': 'application/json' }, body: '[]' };
const tooMany = (headers: Record<string, string>): CannedReply => ({
  status: 429,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: '{"code":"rate_limited","message":"slow down","status":429}',
});
const unix = (ms: number) => String(Math.ceil(ms / 1000));

interface WaitCase {
  name: string;
  headers: (now: number) => Record<string, string>;
  waitMs: number;
  reason: string;
  notice: RegExp | null;
}

const CASES: WaitCase[] = [
  {
    name: 'Retry-After as an HTTP-date 30 s ahead',
    headers: (now) => ({ 'Retry-After': new Date(now + 30_000).toUTCString() }),
    waitMs: 30_000,
    reason: 'retry_after',
    notice: null,
  },
  {
    name: 'Retry-After negative',
    headers: () => ({ 'Retry-After': '-5' }),
    waitMs: 1000,
    reason: 'retry_after',
    notice: /negative Retry-After/,
  },
  {
    name: 'Retry-After garbage',
    headers: () => ({ 'Retry-After': 'soon, maybe <b>' }),
    // nothing usable: the learned pause (rate cut to 0.7/s, 1.5 × max(1 s, 1/0.7 s) with random 0.5)
    waitMs: 2142,
    reason: 'throttled',
    notice: /unreadable Retry-After/,
  },
  {
    name: 'Retry-After a year away (delta-seconds)',
    headers: () => ({ 'Retry-After': String(365 * 24 * 3600) }),
    waitMs: MAX_WAIT_MS,
    reason: 'retry_after',
    notice: /more than a day/,
  },
  {
    name: 'Retry-After a year away (HTTP-date)',
    headers: (now) => ({ 'Retry-After': new Date(now + 365 * 24 * 3600 * 1000).toUTCString() }),
    waitMs: MAX_WAIT_MS,
    reason: 'retry_after',
    notice: /more than a day/,
  },
  {
    name: '429 without Retry-After, reset 20 s ahead',
    headers: (now) => ({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': unix(now + 20_000),
    }),
    waitMs: 20_100,
    reason: 'remaining_zero',
    notice: null,
  },
  {
    name: '429 without Retry-After or rate-limit headers',
    headers: () => ({}),
    waitMs: 2142,
    reason: 'throttled',
    notice: null,
  },
  {
    name: '429 with a reset time in the past',
    headers: (now) => ({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': unix(now - 60_000),
    }),
    waitMs: 1000,
    reason: 'backoff',
    notice: null,
  },
];

describe('hostile server: rate-limit headers', () => {
  it.each(CASES)('$name: a sane wait, nothing sent during it, then served', async (c) => {
    // whole seconds, so the `Date` header (second precision) shows no clock skew
    await clock.advanceAndSettleTo(Math.ceil(clock.now() / 1000) * 1000 + 1000);
    const { client, governor } = hostileClient(server.base('rate'), { clock, maxRetries: 3 });
    onTestFinished(() => governor.dispose());
    const t0 = clock.now();
    server.rateReply = tooMany(c.headers(t0));
    const before = server.requestsTo('rate').length;
    const pending = client.listPets({ limit: 5 });
    await vi.waitFor(() => expect(governor.snapshot().pausedUntil).not.toBeNull());
    const snapshot = governor.snapshot();
    expect(snapshot.pausedUntil).toBe(t0 + c.waitMs);
    expect(snapshot.pauseReason).toBe(c.reason);
    if (c.notice) expect(snapshot.notice).toMatch(c.notice);
    else expect(snapshot.notice).toBeNull();
    server.rateReply = OK_LIST;
    await clock.advanceAndSettle(c.waitMs - 1);
    expect(server.requestsTo('rate').length - before).toBe(1);
    await clock.advanceAndSettle(1);
    const result = await pending;
    expect(result.ok).toBe(true);
    const sent = server.requestsTo('rate').slice(before);
    expect(sent.map((r) => r.at - t0)).toEqual([0, c.waitMs]);
    console.log(`${c.name}: waited ${c.waitMs} ms (${c.reason}), 0 requests during the wait`);
  });

  it('missing rate-limit headers: requests flow at the pace of the smallest plan (1 per second), nothing paused', async () => {
    const { client, governor } = hostileClient(server.base('no-rate-headers'), { clock });
    onTestFinished(() => governor.dispose());
    const t0 = clock.now();
    const pending = Promise.all([1, 2, 3, 4, 5].map((limit) => client.listPets({ limit })));
    await vi.waitFor(() => expect(server.requestsTo('no-rate-headers').length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(governor.snapshot().pacing).not.toBeNull());
    for (let i = 0; i < 4; i += 1) await clock.advanceAndSettle(1000);
    const results = await pending;
    expect(results.every((r) => r.ok)).toBe(true);
    expect(governor.snapshot()).toMatchObject({
      limit: null,
      remaining: null,
      pausedUntil: null,
      pauseReason: null,
      notice: null,
      inFlight: 0,
      pacing: { reason: 'assumed_plan' },
    });
    const times = server.requestsTo('no-rate-headers').map((r) => r.at - t0);
    expect(times).toHaveLength(5);
    for (let i = 1; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(990);
  });

  it('a 200 with nothing remaining and a reset in the past does not stop the next request', async () => {
    const { client, governor } = hostileClient(server.base('rate'), { clock });
    onTestFinished(() => governor.dispose());
    server.rateReply = {
      ...OK_LIST,
      headers: { ...OK_LIST.headers, 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': unix(clock.now() - 60_000) },
    };
    expect((await client.listPets({ limit: 5 })).ok).toBe(true);
    expect(governor.snapshot().pausedUntil).toBeNull();
    expect((await client.listPets({ limit: 5 })).ok).toBe(true);
    expect(clock.now() - START).toBeGreaterThan(0);
  });

  it('garbage rate-limit counts are ignored with a notice, not trusted', async () => {
    const { client, governor } = hostileClient(server.base('rate'), { clock });
    onTestFinished(() => governor.dispose());
    server.rateReply = {
      ...OK_LIST,
      headers: {
        ...OK_LIST.headers,
        'X-RateLimit-Limit': 'lots',
        'X-RateLimit-Remaining': '-3',
        'X-RateLimit-Reset': 'x',
      },
    };
    expect((await client.listPets({ limit: 5 })).ok).toBe(true);
    const snapshot = governor.snapshot();
    expect(snapshot).toMatchObject({ limit: null, remaining: null, resetAt: null, pausedUntil: null });
    expect(snapshot.notice).toMatch(/unreadable X-RateLimit-Limit.*unreadable X-RateLimit-Remaining/);
  });
});
