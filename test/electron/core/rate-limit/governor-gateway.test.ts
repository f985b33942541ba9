/**
 * Issue 11.1–11.2 on a fake clock: the governor behind a gateway that hides the rate headers
 * and refuses with a bare 429, a bare 503 or a 429 with Retry-After (gateway-sim.ts models
 * nginx's limit_req). The outbox sends one creation at a time and again until created.
 */
import { describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { FakeClock } from '../../../support/fake-clock';
import { busiestSpan, type SimGatewayMode, simulateGateway } from './gateway-sim';
import { GovernedService } from './governed-service';

describe('governor behind a gateway that says little', () => {
  it.each<SimGatewayMode>(['429', '503', '429-retry-after'])(
    '%s at 1 r/s, burst 3: 60 creations, each created once, at most 5 refused, never a burst',
    async (mode) => {
      const report = await simulateGateway({ mode, rate: 1, burst: 3, creations: 60 });
      expect(report.created).toBe(60);
      expect(report.succeeded).toBe(60);
      expect(report.refused).toBeLessThanOrEqual(5);
      // paced from the first answer without headers: never two requests within half a second
      expect(busiestSpan(report.lines, 500)).toBe(1);
    },
  );

  it.each<SimGatewayMode>(['429', '503', '429-retry-after'])(
    '%s at a stricter 0.5 r/s: learns a slower pace; after the first refusal, no burst above it',
    async (mode) => {
      const report = await simulateGateway({ mode, rate: 0.5, burst: 3, creations: 30 });
      expect(report.created).toBe(30);
      const firstRefusal = report.lines.find((line) => line.status !== 201);
      expect(firstRefusal).toBeDefined();
      const after = report.lines.filter((line) => line.at > firstRefusal!.at);
      // cut to 0.7 r/s or lower: consecutive requests at least 1/0.7 s apart (less 10 ms of latency)
      for (let i = 1; i < after.length; i += 1)
        expect(after[i]!.at - after[i - 1]!.at).toBeGreaterThanOrEqual(1000 / 0.7 - 10);
      expect(report.refused).toBeLessThanOrEqual(4);
    },
  );

  it('a bare 503 pauses the whole profile, longer for each in a row, then one probe goes first', async () => {
    const clock = new FakeClock();
    const governor = new RateLimitGovernor({ profileId: 'p', clock, random: () => 0.5 });
    const service = new GovernedService(governor, clock, (i) => ({ status: i < 2 ? 503 : 200 }), 0, true);
    const start = clock.now();
    const calls = Array.from({ length: 6 }, (_, i) => service.call('read', `r${i}`));
    await clock.flush();
    expect(governor.snapshot()).toMatchObject({ pauseReason: 'throttled', queued: { reads: 6 } });
    await clock.advanceAndSettle(120_000);
    expect(await Promise.all(calls)).toHaveLength(6);
    const times = service.sent.map((sent) => sent.at - start);
    // refusal 1 → pause 2142 ms, refusal 2 → 6122 ms (doubled, rate cut twice), then the probe
    // alone and the rest paced at the learned 0.49 r/s (about 2.04 s apart)
    expect(times.slice(0, 3)).toEqual([0, 2142, 2142 + 6122]);
    for (let i = 3; i < times.length; i += 1) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(2000);
    expect(service.sent.slice(0, 3).map((sent) => sent.label)).toEqual(['r0', 'r0', 'r0']);
  });

  it('says the profile is holding requests for the pace, not only during a pause', async () => {
    const clock = new FakeClock();
    const governor = new RateLimitGovernor({ profileId: 'p', clock, random: () => 0.5 });
    const service = new GovernedService(governor, clock, () => ({ status: 200 }), 0, true);
    const calls = Array.from({ length: 3 }, (_, i) => service.call('write', `w${i}`));
    await clock.flush();
    await clock.flush();
    expect(governor.snapshot()).toMatchObject({
      pacing: { intervalMs: expect.closeTo(1000, -1) as number, reason: 'assumed_plan' },
      heldUntil: clock.now() + 1000,
      queued: { writes: 2 },
    });
    await clock.advanceAndSettle(2000);
    expect(await Promise.all(calls)).toEqual(['w0:200', 'w1:200', 'w2:200']);
    expect(governor.snapshot().heldUntil).toBeNull();
  });
});
