/**
 * Issue 11.4 on a fake clock: several devices (each its own governor and service client, no
 * shared state) on one Free key, against the local service's own limiter (shared-key-sim.ts).
 * Today's governor gets the key banned from 13 devices on (every in-flight request is refused
 * when the window runs out, and more than 10 of them count while told to wait).
 */
import { describe, expect, it } from 'vitest';
import { DeviceShare } from '../../../../electron/core/rate-limit/device-share';
import { simulateSharedKey } from './shared-key-sim';

const T0 = Date.UTC(2030, 0, 15, 12);

describe('DeviceShare inference', () => {
  it('counts the others from the drop of Remaining between two answers, less our own requests', () => {
    const share = new DeviceShare(() => 0.5, 100);
    share.observe({ seq: 1, remaining: 59, resetKey: 'w1', at: T0 + 5, sentAt: T0 });
    expect(share.othersActive(T0 + 5)).toBe(false);
    // our second request was counted after three of the others'
    share.observe({ seq: 2, remaining: 55, resetKey: 'w1', at: T0 + 10, sentAt: T0 + 5 });
    expect(share.othersActive(T0 + 10)).toBe(true);
    expect(share.devices(T0 + 10)).toBe(4);
  });

  it('does not count our own refused requests, nor a new window, nor an answer overtaken by a newer one', () => {
    const share = new DeviceShare(() => 0.5, 100);
    share.observe({ seq: 1, remaining: 10, resetKey: 'w1', at: T0, sentAt: T0 });
    share.onRefused(2);
    share.observe({ seq: 3, remaining: 9, resetKey: 'w1', at: T0 + 10, sentAt: T0 + 5 });
    share.observe({ seq: 2, remaining: 0, resetKey: 'w1', at: T0 + 11, sentAt: T0 + 1 });
    share.observe({ seq: 4, remaining: 59, resetKey: 'w2', at: T0 + 20, sentAt: T0 + 15 });
    expect(share.othersActive(T0 + 20)).toBe(false);
  });

  it('holds back what the others in flight will take, then waits for the reset plus a jitter', () => {
    const share = new DeviceShare(() => 0.5, 100);
    const resetAt = T0 + 10_000;
    let at = T0;
    let remaining = 60;
    // four devices in step: three others between two answers of ours
    for (let seq = 1; seq <= 10; seq += 1) {
      remaining -= seq === 1 ? 1 : 4;
      share.observe({ seq, remaining, resetKey: 'w1', at: (at += 4), sentAt: at - 4 });
    }
    expect(share.devices(at)).toBe(4);
    expect(remaining).toBe(23);
    expect(share.readyAt(at, 0, resetAt)).toBe(at);
    share.observe({ seq: 11, remaining: 3, resetKey: 'w1', at: (at += 4), sentAt: at - 4 });
    // three left, three others in flight: nothing for us before the reset
    expect(share.readyAt(at + 1000, 0, resetAt)).toBe(resetAt + 100 + 15);
  });
});

describe('several devices on one Free key (fake clock, the local service limiter)', () => {
  it.each([
    [4, 0.01],
    [8, 0.02],
    [16, 0.05],
  ])('%i devices drain 300 creations: each created once, no ban, refusals ≤ %s of requests', async (devices, share) => {
    for (const seed of [1, 2]) {
      const report = await simulateSharedKey({ devices, creations: 300, windowMs: 10_000, seed });
      expect(report.created).toBe(300);
      expect(report.bans).toBe(0);
      expect(report.refused / report.requests).toBeLessThanOrEqual(share);
    }
  });
});
