/**
 * The clock-skew estimate (rate-window.ts SkewEstimate) and what it buys the governor: the
 * window restarts close to the server's real reset, and never before it (fake clock).
 */
import { describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { SkewEstimate } from '../../../../electron/core/rate-limit/rate-window';
import { FakeClock } from '../../../support/fake-clock';

const T0 = Date.UTC(2030, 0, 15, 12, 0, 0);
const date = (serverMs: number): string => new Date(serverMs).toUTCString();

describe('SkewEstimate', () => {
  it('keeps the largest lower bound (Date − receivedAt) and the smallest upper bound (Date + 1 s − sentAt)', () => {
    const skew = new SkewEstimate();
    expect(skew.lowMs).toBe(0);
    // true offset +250 ms; server time at the exchange 12:00:00.900 → Date 12:00:00
    skew.add(date(T0 + 900), T0 + 640, T0 + 660);
    expect(skew.lowMs).toBe(-660);
    expect(skew.highMs).toBe(1000 - 640);
    // just after the server's next second (12:00:01.010): the lower bound becomes tight
    skew.add(date(T0 + 1010), T0 + 750, T0 + 770);
    expect(skew.lowMs).toBe(1000 - 770);
    expect(skew.lowMs).toBeLessThanOrEqual(250);
    expect(skew.highMs).toBeGreaterThanOrEqual(250);
  });

  it('ignores a missing or unreadable Date, and without sentAt learns only the lower bound', () => {
    const skew = new SkewEstimate();
    skew.add(null, T0, T0);
    skew.add('yesterday', T0, T0);
    expect(skew.lowMs).toBe(0);
    skew.add(date(T0 + 5000), null, T0 + 100);
    expect(skew.lowMs).toBe(4900);
    expect(skew.highMs).toBe(Infinity);
  });

  it('starts again from the new sample when it contradicts the kept ones (a stepped clock)', () => {
    const skew = new SkewEstimate();
    skew.add(date(T0 + 1005), T0 + 990, T0 + 1000); // offset in [0, 1010)
    expect(skew.lowMs).toBe(0);
    expect(skew.highMs).toBe(1010);
    // the local clock jumped 10 s ahead: the offset is now about −10 s; the old bound is dropped
    skew.add(date(T0 + 2000), T0 + 12_000, T0 + 12_010);
    expect(skew.lowMs).toBe(-10_010);
    expect(skew.highMs).toBe(-9000);
  });

  it('forgets samples older than two minutes', () => {
    const skew = new SkewEstimate();
    skew.add(date(T0 + 1000), T0 + 990, T0 + 1000); // low 0
    skew.add(date(T0 + 60_500), T0 + 60_490, T0 + 60_510); // low −510
    expect(skew.lowMs).toBe(0);
    skew.add(date(T0 + 121_600), T0 + 121_690, T0 + 121_700); // low −700; the first is > 2 min old
    expect(skew.lowMs).toBe(-510);
  });
});

/**
 * A service whose clock runs `offsetMs` ahead of ours, answering after `latencyMs` with
 * Date (whole seconds, truncated) and a Reset rounded up, for one fixed window of `windowMs`
 * starting at server time `windowStart`. Records the server time each request arrived at.
 */
function simulate(offsetMs: number, windowStart: number, latencyMs: number) {
  const clock = new FakeClock(T0);
  const governor = new RateLimitGovernor({ profileId: 'p', clock, random: () => 0.5 });
  const limit = 20;
  const windowMs = 10_000;
  const arrivals: number[] = [];
  let count = 0;
  let windowEnd = windowStart + windowMs;
  const send = (): Promise<string> =>
    governor.schedule(
      'write',
      async () => {
        const server = clock.now() + offsetMs;
        arrivals.push(server);
        while (server >= windowEnd) {
          windowEnd += windowMs;
          count = 0;
        }
        count += 1;
        await new Promise<void>((resolve) => clock.setTimeout(resolve, latencyMs));
        const headers = new Headers({
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': String(Math.max(0, limit - count)),
          'X-RateLimit-Reset': String(Math.ceil(windowEnd / 1000)),
          Date: date(clock.now() - latencyMs / 2 + offsetMs),
        });
        return { value: count > limit ? '429' : 'ok', outcome: count > limit ? 'rate_limited' : 'ok', headers };
      },
      { retryable: true },
    );
  return { clock, governor, arrivals, send, limit, windowEnd: () => windowEnd };
}

describe('RateLimitGovernor restarts a window close to the real reset, never before it', () => {
  it('over many offsets and phases: 0 × 429, and at most ⌈reset⌉ − reset + margin + one request late', async () => {
    for (let trial = 0; trial < 40; trial += 1) {
      const offsetMs = Math.round((trial * 7919) % 5000) - 2500 + trial / 7; // fractional, ± 2.5 s
      const windowStart = T0 + offsetMs + ((trial * 337) % 1000);
      const latencyMs = 2 + (trial % 5) * 3;
      const sim = simulate(offsetMs, windowStart, latencyMs);
      await sim.clock.advanceAndSettle(windowStart - offsetMs - T0);
      const results = Array.from({ length: sim.limit + 5 }, () => sim.send());
      await sim.clock.advanceAndSettle(30_000);
      await expect(Promise.all(results)).resolves.toEqual(results.map(() => 'ok'));
      const reset = windowStart + 10_000;
      const firstOfNext = sim.arrivals[sim.limit]!;
      expect(firstOfNext).toBeGreaterThanOrEqual(reset);
      const rounding = Math.ceil(reset / 1000) * 1000 - reset;
      // the 20 serial requests span > 1 s of server time only with latency ≥ 50 ms; here they
      // span less, so the bound allows one second boundary's worth of slack in the estimate
      expect(firstOfNext - reset).toBeLessThanOrEqual(rounding + 100 + 1000 + latencyMs);
    }
  });

  it('learns a tight skew once responses cross a server second: restarts within margin + ~2 requests', async () => {
    const offsetMs = 1234.5;
    const windowStart = T0 + offsetMs + 300;
    const sim = simulate(offsetMs, windowStart, 60); // 20 serial requests of 60 ms: 1.2 s
    await sim.clock.advanceAndSettle(windowStart - offsetMs - T0);
    const results = Array.from({ length: sim.limit + 1 }, () => sim.send());
    await sim.clock.advanceAndSettle(30_000);
    await Promise.all(results);
    const reset = windowStart + 10_000;
    const late = sim.arrivals[sim.limit]! - reset;
    const rounding = Math.ceil(reset / 1000) * 1000 - reset;
    expect(late).toBeGreaterThanOrEqual(rounding);
    expect(late).toBeLessThanOrEqual(rounding + 100 + 2 * 60);
  });
});
