/**
 * Several devices on one key, on a fake clock: each device is its own governor and service
 * client (no shared state), all talking to one simulated service whose limiter is the local
 * service's own (test/service/rate-limits.ts: fixed windows from the first request, a wait
 * after a 429, a ban for requests sent while told to wait). Latencies are drawn from a seeded
 * generator, so a run repeats exactly. Used by the shared-key unit tests.
 */
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import type { Clock } from '../../../../src/shared/basics/clock';
import { createServiceClient } from '../../../../electron/core/service/service-client';
import { PLANS } from '../../../service/plans';
import { mulberry32, type Random } from '../../../service/prng';
import { RateLimiter } from '../../../service/rate-limits';
import { FakeClock } from '../../../support/fake-clock';

export interface SimOptions {
  devices: number;
  creations: number;
  windowMs: number;
  seed: number;
  /** One-way latency range, ms (default 1–4). */
  latencyMs?: [number, number];
  banAfter?: number;
  /**
   * Where in a second of the service's clock the first request falls (default 0). The reset
   * header has whole seconds, so this decides how late after a window's real start the devices
   * come back, and so whether a refusal late in one window (which makes the key wait until the
   * same point of the next) catches them coming back: the ban risk the bench met at 16 devices.
   */
  startPhaseMs?: number;
  /**
   * Each device's clock minus the service's, ms (default 0 for all): a device reads the time,
   * and so sends and learns, on its own clock.
   */
  clockOffsetMs?: (device: number) => number;
  /**
   * Devices start spread over `[0, startSpreadMs]` (a seeded draw per device; the earliest at 0,
   * so the first request still falls at `startPhaseMs`). Default 0: all at once. The bench's 16
   * app cores in one process start over seconds, and those whose first request comes after the
   * first window is used up are refused there (7 refusals in window 0 of every 16-device run).
   */
  startSpreadMs?: number;
  /** Ends the run at the first ban (its figures are then partial): for runs that look at something else. */
  stopOnBan?: boolean;
  /** Called for every request the service decides (for investigation). */
  trace?: (line: { at: number; device: string; status: number; remaining: number; toldToWait: boolean }) => void;
}

export interface SimReport {
  requests: number;
  refused: number;
  bans: number;
  created: number;
  /** Every creation reached the service exactly once (by its Idempotency-Key). */
  once: boolean;
  /** When the last creation was answered, ms from the start. */
  drainMs: number;
  /** Per device: when its last creation was answered, ms from the start. */
  deviceDrainMs: number[];
  /**
   * Per device: each reset time it held (its snapshot's `resetAt`) converted to the service's
   * clock, ms from the start, with when it held it last (service clock, ms from the start).
   */
  resetViews: Array<Array<{ resetMs: number; lastSeenMs: number }>>;
  /**
   * The service's windows after the first: when each really starts and the reset its
   * `X-RateLimit-Reset` gave for it (whole seconds, so up to a second later), ms from the start.
   */
  windows: Array<{ startMs: number; resetHeaderMs: number }>;
  /**
   * Per window of the service (0 = the key's first): requests accepted, refused, refused while
   * told to wait, and of those the ones told to wait by a refusal of an earlier window
   * (`Retry-After` is rounded up to whole seconds, so a refusal's wait can end up to a second
   * into the next window).
   */
  perWindow: Array<{ accepted: number; refused: number; whileWaiting: number; carriedOver: number }>;
  /** When each device started (its first task queued), ms from the start. */
  startMs: number[];
}

const BAN_MS = 600_000;

/** Each device's clock minus the service's for the shared-key tests and the grid: −2.5 s to +2.5 s, with fractions of a ms. */
export const clockOffset = (device: number): number => ((device * 7919) % 5000) - 2500 + device * 0.37;

export async function simulateSharedKey(options: SimOptions): Promise<SimReport> {
  const clock = new FakeClock(Date.UTC(2030, 0, 15, 12, 0, 0) + (options.startPhaseMs ?? 0));
  const start = clock.now();
  const random = mulberry32(options.seed);
  const limiter = new RateLimiter({
    minuteMs: options.windowMs,
    dayMs: 86_400_000,
    banAfter: options.banAfter ?? 10,
    banMs: BAN_MS,
  });
  const counts = { requests: 0, refused: 0, bans: 0, created: 0, banned: false };
  const perWindow: SimReport['perWindow'] = [];
  /** The window in which the last refusal that set a wait was made. */
  let waitSetIn = -1;
  const createdKeys = new Set<string>();
  let firstRequestAt: number | undefined;
  const [low, high] = options.latencyMs ?? [1, 4];
  const latency = (): number => low + Math.floor(random() * (high - low + 1));

  const simFetch = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    await wait(clock, latency());
    counts.requests += 1;
    firstRequestAt ??= clock.now();
    const decision = limiter.check('key', PLANS.free, clock.now());
    const index = Math.floor((clock.now() - firstRequestAt) / options.windowMs);
    const cell = (perWindow[index] ??= { accepted: 0, refused: 0, whileWaiting: 0, carriedOver: 0 });
    if (decision.kind === 'allowed') cell.accepted += 1;
    else cell.refused += 1;
    if (decision.toldToWait) cell.whileWaiting += 1;
    // the refusal that sets a wait is the one not made while told to wait
    if (decision.kind !== 'allowed' && !decision.toldToWait) waitSetIn = index;
    if (decision.toldToWait && waitSetIn < index) cell.carriedOver += 1;
    const device = new Headers(init.headers).get('Idempotency-Key')?.slice(2, 5) ?? '?';
    options.trace?.({
      at: clock.now() - start,
      device,
      status: decision.kind === 'allowed' ? 201 : 429,
      remaining: decision.headers.remaining,
      toldToWait: decision.toldToWait,
    });
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': String(decision.headers.limit),
      'X-RateLimit-Remaining': String(decision.headers.remaining),
      'X-RateLimit-Reset': String(decision.headers.reset),
      Date: new Date(clock.now()).toUTCString(),
    };
    let status = 201;
    let body = JSON.stringify({ id: counts.requests, name: 'Sim', categoryId: 1 });
    if (decision.kind !== 'allowed') {
      status = 429;
      counts.refused += 1;
      if (decision.kind === 'banned' && !counts.banned) counts.bans += 1;
      counts.banned = decision.kind === 'banned';
      headers['Retry-After'] = String(decision.retryAfterSeconds);
      body = JSON.stringify({
        code: decision.kind === 'banned' ? 'key_banned' : 'rate_limited',
        message: 'limited',
        status: 429,
      });
    } else {
      counts.banned = false;
      if (init.method === 'POST') {
        counts.created += 1;
        createdKeys.add(new Headers(init.headers).get('Idempotency-Key') ?? '');
      }
    }
    await wait(clock, latency());
    return new Response(body, { status, headers });
  }) as typeof fetch;

  const perDevice = Math.ceil(options.creations / options.devices);
  // the start delays are drawn first, so that a run with no spread draws the same latencies as before
  const spread = options.startSpreadMs ?? 0;
  const drawn = Array.from({ length: options.devices }, () => (spread > 0 ? random() * spread : 0));
  const startMs = drawn.map((ms) => Math.round(ms - Math.min(...drawn)));
  const deviceDrainMs: number[] = [];
  const resetViews: SimReport['resetViews'] = [];
  const runs = Array.from({ length: options.devices }, async (_, device) => {
    if (startMs[device]! > 0) await wait(clock, startMs[device]!);
    const offset = options.clockOffsetMs?.(device) ?? 0;
    const own = offsetClock(clock, offset);
    const governor = new RateLimitGovernor({ profileId: `d${device}`, clock: own, random: child(random) });
    const views: SimReport['resetViews'][number] = [];
    resetViews[device] = views;
    governor.onSnapshot((snapshot) => {
      if (snapshot.resetAt === null) return;
      const resetMs = snapshot.resetAt - offset - start;
      const lastSeenMs = clock.now() - start;
      const last = views.at(-1);
      if (last && last.resetMs === resetMs) last.lastSeenMs = lastSeenMs;
      else views.push({ resetMs, lastSeenMs });
    });
    const client = createServiceClient({
      fetch: simFetch,
      baseUrl: 'http://sim.invalid/v1',
      getKey: async () => 'key',
      governor,
      clock: own,
      profileId: `d${device}`,
    });
    const mine = Math.min(perDevice, options.creations - device * perDevice);
    // as the outbox (and the bench) do: a creation the core gave up on is sent again with its key
    await Promise.all(
      Array.from({ length: mine }, async (_, i) => {
        const key = `k${String(device).padStart(3, '0')}-${i}`;
        for (let tries = 0; tries < 20; tries += 1) {
          const result = await client.createPet({ name: `D${device} ${i}`, categoryId: '1' }, key);
          if (result.ok) return;
        }
      }),
    );
    deviceDrainMs[device] = clock.now() - start;
    governor.dispose();
  });
  let done = false;
  const all = Promise.all(runs).then(() => {
    done = true;
  });
  while (!done && clock.now() - start < 20 * options.windowMs * Math.ceil(options.creations / 60)) {
    if (options.stopOnBan && counts.bans > 0) break;
    await clock.advanceAndSettle(5);
  }
  if (done) await all;
  // a device still not done (a ban held it to the end of the run) counts as done at the end
  for (let device = 0; device < options.devices; device += 1) deviceDrainMs[device] ??= clock.now() - start;
  const windows: SimReport['windows'] = [];
  // the service's windows: fixed, from the key's first request (test/service/rate-limits.ts)
  for (let at = (firstRequestAt ?? start) + options.windowMs; at <= clock.now(); at += options.windowMs)
    windows.push({ startMs: at - start, resetHeaderMs: Math.ceil(at / 1000) * 1000 - start });
  const once = counts.created === options.creations && createdKeys.size === options.creations;
  return {
    ...counts,
    once,
    drainMs: Math.max(...deviceDrainMs),
    deviceDrainMs,
    resetViews,
    windows,
    perWindow,
    startMs,
  };
}

/** A device's own clock: the service's plus `offsetMs`, with the same timers and elapsed time. */
function offsetClock(clock: FakeClock, offsetMs: number): Clock {
  return {
    now: () => clock.now() + offsetMs,
    monotonic: () => clock.monotonic(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  };
}

function wait(clock: FakeClock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}

function child(random: Random): Random {
  return mulberry32(Math.floor(random() * 2 ** 32));
}

/** Jain's fairness index of the devices' throughputs (creations per ms). */
export function jainIndex(values: readonly number[]): number {
  const sum = values.reduce((a, b) => a + b, 0);
  const squares = values.reduce((a, b) => a + b * b, 0);
  return values.length === 0 || squares === 0 ? 1 : (sum * sum) / (values.length * squares);
}
