import { describe, expect, it } from 'vitest';
import { QueueCancelledError, RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import type { GovernorSnapshot } from '../../../../src/shared/app-api/rate-limit';
import { FakeClock } from '../../../support/fake-clock';
import { rateHeaders } from '../fake-fetch';
import { GovernedService, type Reply } from './governed-service';

function setup(script: (index: number, label: string, clock: FakeClock) => Reply, maxInFlight = 4) {
  const clock = new FakeClock();
  const governor = new RateLimitGovernor({ profileId: 'p1', clock, random: () => 0.5, maxInFlight });
  const service = new GovernedService(governor, clock, (i, label) => script(i, label, clock));
  return { clock, governor, service };
}

const ok: Reply = { status: 200 };

describe('RateLimitGovernor scheduling', () => {
  it('sends user-facing reads before background writes', async () => {
    const { clock, service } = setup(() => ok, 1);
    service.hold = true;
    const blocker = service.call('read', 'blocker');
    const calls = [
      service.call('write', 'w1'),
      service.call('write', 'w2'),
      service.call('read', 'r1'),
      service.call('read', 'r2'),
    ];
    await clock.flush();
    // the profile's first window holds its room for 330 ms after the first answer (device-share.ts, roomUntil)
    for (let i = 0; i < 5; i += 1) {
      service.release();
      await clock.advanceAndSettle(400);
    }
    await Promise.all([blocker, ...calls]);
    expect(service.sent.map((s) => s.label)).toEqual(['blocker', 'r1', 'r2', 'w1', 'w2']);
  });

  it('gives writes a share: after every 3 reads sent while a write waits, the write goes next', async () => {
    const { clock, service } = setup(() => ok, 1);
    service.hold = true;
    const blocker = service.call('read', 'blocker');
    const calls = [
      service.call('write', 'w1'),
      service.call('write', 'w2'),
      ...Array.from({ length: 8 }, (_, i) => service.call('read', `r${i + 1}`)),
    ];
    await clock.flush();
    for (let i = 0; i < 11; i += 1) {
      service.release();
      await clock.advanceAndSettle(400);
    }
    await Promise.all([blocker, ...calls]);
    expect(service.sent.map((s) => s.label)).toEqual([
      'blocker',
      'r1',
      'r2',
      'r3',
      'w1',
      'r4',
      'r5',
      'r6',
      'w2',
      'r7',
      'r8',
    ]);
  });

  it('sends writes one at a time in the order given', async () => {
    const { clock, governor, service } = setup(() => ok);
    service.hold = true;
    const writes = ['w1', 'w2', 'w3'].map((label) => service.call('write', label));
    await clock.flush();
    expect(service.sent.map((s) => s.label)).toEqual(['w1']);
    expect(governor.snapshot()).toMatchObject({ inFlight: 1, queued: { reads: 0, writes: 2 } });
    for (let i = 0; i < 3; i += 1) {
      service.release();
      await clock.advanceAndSettle(400);
    }
    expect(await Promise.all(writes)).toEqual(['w1:200', 'w2:200', 'w3:200']);
    expect(service.maxInFlightSeen).toBe(1);
  });

  it('never has more requests in flight than the remaining budget allows', async () => {
    // the profile's first window ends within a second (too soon for its room: device-share.ts,
    // roomUntil); in the next one others have taken all but 2
    const { clock, service } = setup((i, _l, c) => ({
      status: 200,
      headers: i === 0 ? rateHeaders(c.now(), 60, 59, 1_000) : rateHeaders(c.now(), 60, i < 4 ? 3 - i : 50, 60_000),
    }));
    await service.call('read', 'first');
    await clock.advanceAndSettle(1_100);
    await service.call('read', 'second');
    service.hold = true;
    const calls = Array.from({ length: 6 }, (_, i) => service.call('read', `r${i}`));
    await clock.flush();
    expect(service.sent).toHaveLength(4);
    service.release();
    await clock.flush();
    expect(service.sent).toHaveLength(4);
    service.hold = false;
    // the window ran out with 3 of our requests counted in it: others took the 57 before, so
    // the profile comes back a second after the reset, as a shared key's devices do (issue 34)
    await clock.advanceAndSettle(62_000);
    expect(await Promise.all(calls)).toHaveLength(6);
    expect(service.sent[4]!.at - service.sent[1]!.at).toBeGreaterThanOrEqual(60_000);
  });

  it('retries a GET on network errors and 5xx up to 3 times with backoff', async () => {
    const { clock, service } = setup((i) => (i % 2 === 0 ? { status: null } : { status: 502 }));
    const start = clock.now();
    const result = service.call('read', 'list');
    await clock.advanceAndSettle(10_000);
    await expect(result).resolves.toBe('list:502');
    // full jitter with random 0.5: 500, 1000, 2000 ms after each failure
    expect(service.sent.map((s) => s.at - start)).toEqual([0, 500, 1500, 3500]);
  });

  it('honours Retry-After of a 503 by pausing the whole profile', async () => {
    const { clock, governor, service } = setup((i) =>
      i === 0 ? { status: 503, headers: { 'Retry-After': '3' } } : ok,
    );
    const start = clock.now();
    const result = service.call('read', 'list');
    await clock.flush();
    expect(governor.snapshot()).toMatchObject({ pauseReason: 'retry_after', pausedUntil: start + 3000 });
    await clock.advanceAndSettle(3000);
    await expect(result).resolves.toBe('list:200');
    expect(service.sent.map((s) => s.at - start)).toEqual([0, 3000]);
  });

  it('retries a POST only when it carries an Idempotency-Key', async () => {
    const blind = setup(() => ({ status: 503 }));
    const unkeyed = blind.service.call('write', 'post', false);
    await blind.clock.advanceAndSettle(60_000);
    await expect(unkeyed).resolves.toBe('post:503');
    expect(blind.service.sent).toHaveLength(1);

    const keyed = setup((i) => (i < 2 ? { status: 503 } : { status: 201 }));
    const withKey = keyed.service.call('write', 'post', true);
    await keyed.clock.advanceAndSettle(60_000);
    await expect(withKey).resolves.toBe('post:201');
    expect(keyed.service.sent.map((s) => s.attempt)).toEqual([0, 1, 2]);
  });

  it('does not resend an unkeyed POST after a 429, but still waits before the next request', async () => {
    const { clock, service } = setup((i) => (i === 0 ? { status: 429, headers: { 'Retry-After': '4' } } : ok));
    const start = clock.now();
    await expect(service.call('write', 'post', false)).resolves.toBe('post:429');
    const next = service.call('read', 'list');
    await clock.advanceAndSettle(4000);
    await expect(next).resolves.toBe('list:200');
    expect(service.sent.map((s) => s.at - start)).toEqual([0, 4000]);
  });

  it('after a 429 with no Retry-After and no rate headers, pauses longer for each refusal in a row', async () => {
    const { clock, governor, service } = setup((i) => (i < 3 ? { status: 429 } : ok));
    const start = clock.now();
    const result = service.call('read', 'list');
    await clock.flush();
    expect(governor.snapshot()).toMatchObject({ pauseReason: 'throttled', pausedUntil: start + 2142 });
    await clock.advanceAndSettle(60_000);
    await expect(result).resolves.toBe('list:200');
    // the pace is cut to 0.7, 0.49, 0.343 per second; each pause is [w, 2w) (random 0.5: 1.5 w)
    // with w = max(1 s, one interval) × 2^(refusals in a row − 1)
    expect(service.sent.map((s) => s.at - start)).toEqual([0, 2142, 2142 + 6122, 2142 + 6122 + 17492]);
  });

  it.each([
    ['-5', 1000, /negative/],
    ['999999', 24 * 3600_000, /more than a day/],
  ])('clamps an unreasonable Retry-After %s and reports it', async (value, waitMs, notice) => {
    const { clock, governor, service } = setup((i) =>
      i === 0 ? { status: 429, headers: { 'Retry-After': value } } : ok,
    );
    void service.call('read', 'list');
    await clock.flush();
    const snapshot = governor.snapshot();
    expect(snapshot.pausedUntil! - clock.now()).toBe(waitMs);
    expect(snapshot.notice).toMatch(notice);
  });

  it('falls back to the reset when Retry-After is garbage, and reports it', async () => {
    const { clock, governor, service } = setup((i, _l, c) =>
      i === 0 ? { status: 429, headers: { 'Retry-After': 'soon-ish', ...rateHeaders(c.now(), 60, 0, 20_000) } } : ok,
    );
    void service.call('read', 'list');
    await clock.flush();
    const snapshot = governor.snapshot();
    expect(snapshot.pauseReason).toBe('remaining_zero');
    expect(snapshot.pausedUntil! - clock.now()).toBeGreaterThanOrEqual(20_000);
    expect(snapshot.notice).toMatch(/unreadable Retry-After/);
  });

  it('publishes a snapshot on every change and stops when unsubscribed', async () => {
    const { clock, governor, service } = setup((_i, _l, c) => ({
      status: 200,
      headers: rateHeaders(c.now(), 60, 41, 60_000),
    }));
    const seen: GovernorSnapshot[] = [];
    const unsubscribe = governor.onSnapshot((snapshot) => seen.push(snapshot));
    await service.call('read', 'a');
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)).toMatchObject({ profileId: 'p1', limit: 60, remaining: 41, inFlight: 0 });
    unsubscribe();
    const count = seen.length;
    await service.call('read', 'b');
    await clock.flush();
    expect(seen).toHaveLength(count);
  });

  it('drops a queued request whose signal aborts, without sending it', async () => {
    const { clock, governor, service } = setup(() => ({ status: 429, headers: { 'Retry-After': '10' } }));
    void service.call('read', 'first', false);
    await clock.flush();
    const controller = new AbortController();
    const cancelled = service.call('read', 'second', true, controller.signal);
    await clock.flush();
    expect(governor.snapshot().queued.reads).toBe(1);
    controller.abort();
    await expect(cancelled).rejects.toBeInstanceOf(QueueCancelledError);
    expect(governor.snapshot().queued.reads).toBe(0);
    await clock.advanceAndSettle(20_000);
    expect(service.sent.map((s) => s.label)).toEqual(['first']);
  });
});
