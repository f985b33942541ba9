/**
 * The governor's waits when the computer's clock is set back or forward during them (NTP at an
 * event): a pause, a pace or a wait for the window's reset lasts its real length, in elapsed
 * time, never the jump (docs/simulation.md, the 10,000-day run: behind a gateway, the second
 * animal waited 14,400 s, the three jumps of the clock). The service's clock does not jump:
 * its `Date`, `X-RateLimit-Reset` and `Retry-After` dates are read once, on receipt.
 */
import { describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { FakeClock } from '../../../support/fake-clock';
import { GovernedService, type Reply } from './governed-service';

const MARGIN = 100;
/**
 * After a first window found used up (by others, or by this device before a restart), a device
 * comes back a second after the reset + 20 ms, not at the reset + MARGIN: a refusal made in that
 * window may still hold the key (device-share.ts, sharedOrFoundUsed; issue 34, eleventh attempt);
 * and, with nothing else to send when its first answer set the wait, 40 ms later for the order of
 * return, plus the jitter (5 ms here; twelfth attempt).
 */
const FOUND_USED_RETURN = 1000 + 20 + 40 + 5;
const HOUR = 3_600_000;
/** The day's three jumps (chunk 71, day 68 of the 10,000-day run). */
const SET_BACK = [-2_950_200, -5_669_700, -5_781_800];

/**
 * `script` answers the n-th request; `serverNow` is the service's clock (it never jumps);
 * `sent` holds the elapsed time (ms since the start) at which each request went out.
 */
function setup(script: (index: number, serverNow: number) => Reply, headerless = false) {
  const clock = new FakeClock();
  const governor = new RateLimitGovernor({ profileId: 'p1', clock, random: () => 0.5, resetMarginMs: MARGIN });
  const startMono = clock.monotonic();
  const startWall = clock.now();
  const serverNow = () => startWall + (clock.monotonic() - startMono);
  const sent: number[] = [];
  const service = new GovernedService(
    governor,
    clock,
    (index) => {
      sent.push(clock.monotonic() - startMono);
      return script(index, serverNow());
    },
    0,
    headerless,
  );
  /** Lets `ms` of real time pass. */
  const pass = (ms: number) => clock.advanceAndSettle(ms);
  return { clock, governor, service, sent, serverNow, pass };
}

const httpDate = (ms: number) => new Date(ms).toUTCString();
const okNoHeaders: Reply = { status: 200, headers: {} };
/** The first answer leaves nothing until a reset 10 s on (an epoch, whole seconds); the next ones 59. */
const usedUpByTheFirst = (i: number, server: number): Reply => ({
  status: 200,
  headers: {
    'X-RateLimit-Limit': '60',
    'X-RateLimit-Remaining': i === 0 ? '0' : '59',
    'X-RateLimit-Reset': String(Math.ceil((server + 10_000) / 1000)),
    Date: httpDate(server),
  },
});

describe('RateLimitGovernor when the clock jumps', () => {
  it('behind a gateway (no rate headers): the pace holds the next request one interval, not the jump', async () => {
    const { clock, service, sent, pass } = setup(() => okNoHeaders, true);
    await expect(service.call('write', 'first')).resolves.toBe('first:200');
    const second = service.call('write', 'second');
    await clock.flush();
    expect(sent).toEqual([0]); // paced: the floor plan's 1 request per second
    for (const jump of SET_BACK) clock.jump(jump);
    await pass(999);
    expect(sent).toHaveLength(1);
    await pass(1);
    expect(sent).toEqual([0, 1000]);
    await expect(second).resolves.toBe('second:200');
  });

  it('Retry-After in seconds: the clock set back an hour during the pause, the retry goes 5 s later', async () => {
    const { clock, service, sent, pass } = setup((i) =>
      i === 0 ? { status: 429, headers: { 'Retry-After': '5' } } : okNoHeaders,
    );
    const result = service.call('read', 'list');
    await pass(2000);
    clock.jump(-HOUR);
    await pass(2999);
    expect(sent).toEqual([0]);
    await pass(1);
    expect(sent).toEqual([0, 5000]);
    await expect(result).resolves.toBe('list:200');
  });

  it('Retry-After as an HTTP-date: read once on receipt, then the clock set back; the wait stays 7 s', async () => {
    const { clock, service, sent, pass } = setup((i, server) =>
      i === 0
        ? { status: 429, headers: { 'Retry-After': httpDate(server + 7000), Date: httpDate(server) } }
        : okNoHeaders,
    );
    const result = service.call('read', 'list');
    await clock.flush();
    for (const jump of SET_BACK) clock.jump(jump);
    await pass(6999);
    expect(sent).toEqual([0]);
    await pass(1);
    expect(sent).toEqual([0, 7000]);
    await expect(result).resolves.toBe('list:200');
  });

  it('nothing remaining until the reset (an epoch): the clock set back, the probe goes at the reset', async () => {
    const { clock, service, sent, pass } = setup(usedUpByTheFirst);
    await expect(service.call('read', 'first')).resolves.toBe('first:200');
    const second = service.call('read', 'second');
    await pass(1000);
    clock.jump(-HOUR);
    await pass(9000 + FOUND_USED_RETURN - 1);
    expect(sent).toEqual([0]);
    await pass(1);
    expect(sent).toEqual([0, 10_000 + FOUND_USED_RETURN]);
    await expect(second).resolves.toBe('second:200');
  });

  it('the clock set forward an hour during a pause: new work does not end it early', async () => {
    const { clock, governor, service, sent, pass } = setup((i) =>
      i === 0 ? { status: 429, headers: { 'Retry-After': '30' } } : okNoHeaders,
    );
    const first = service.call('read', 'first');
    await pass(1000);
    clock.jump(HOUR);
    const second = service.call('read', 'second'); // the governor looks at its pause again
    await pass(28_999);
    expect(sent).toEqual([0]);
    expect(governor.snapshot().pauseReason).toBe('retry_after');
    await pass(1);
    expect(sent).toEqual([0, 30_000]); // the probe, after the real 30 s
    await pass(2000); // the next one a paced interval later (the refusal cut the pace to 0.7 per second)
    expect(sent).toHaveLength(3);
    expect(sent[2]).toBeCloseTo(30_000 + 1000 / 0.7, 0);
    await expect(first).resolves.toBe('first:200');
    await expect(second).resolves.toBe('second:200');
  });

  it('the clock set forward past a reset: the window stays used up until its real reset', async () => {
    const { clock, service, sent, pass } = setup(usedUpByTheFirst);
    await expect(service.call('read', 'first')).resolves.toBe('first:200');
    clock.jump(HOUR);
    const second = service.call('read', 'second');
    await pass(10_000 + FOUND_USED_RETURN - 1);
    expect(sent).toEqual([0]);
    await pass(1);
    expect(sent).toEqual([0, 10_000 + FOUND_USED_RETURN]);
    await expect(second).resolves.toBe('second:200');
  });

  it('shows staff the pause on the wall clock as it reads after the jump', async () => {
    const { clock, governor, service, pass } = setup((i) =>
      i === 0 ? { status: 429, headers: { 'Retry-After': '30' } } : okNoHeaders,
    );
    void service.call('read', 'first');
    await pass(10_000);
    clock.jump(-HOUR);
    const paused = governor.snapshot().pausedUntil;
    expect(paused).not.toBeNull();
    expect(paused! - clock.now()).toBe(20_000);
    await pass(20_000);
  });
});
