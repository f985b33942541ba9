import { describe, expect, it } from 'vitest';
import {
  AdaptiveRate,
  DECREASE,
  FLOOR_PLAN_RATE,
  INCREASE,
  MAX_PAUSE_MS,
  STREAK_DECAY,
} from '../../../../electron/core/rate-limit/adaptive-rate';

const T0 = Date.UTC(2030, 0, 15, 12);

describe('AdaptiveRate (AIMD)', () => {
  it('does not pace while the service sends rate headers', () => {
    const rate = new AdaptiveRate(() => 0.5);
    rate.onHeaders(T0);
    rate.onSent(T0);
    expect(rate.rate).toBeNull();
    expect(rate.readyAt(T0)).toBe(T0);
  });

  it('without rate headers, paces at the smallest plan of the interface: one request per second', () => {
    const rate = new AdaptiveRate(() => 0.5);
    rate.onHeaderless();
    expect(rate.rate).toBe(FLOOR_PLAN_RATE);
    expect(rate.isLearned).toBe(false);
    rate.onSent(T0);
    expect(rate.readyAt(T0)).toBe(T0 + 1000);
    rate.onSent(T0 + 1000);
    expect(rate.readyAt(T0 + 1500)).toBe(T0 + 2000);
  });

  it('cuts the rate multiplicatively on each refusal and doubles the pause per refusal in a row', () => {
    const rate = new AdaptiveRate(() => 0.5);
    rate.onHeaderless();
    const pauses = [1, 2, 3].map((i) => rate.onRefused(T0 + i * 100_000));
    expect(rate.rate).toBeCloseTo(FLOOR_PLAN_RATE * DECREASE ** 3, 10);
    expect(rate.isLearned).toBe(true);
    // w = max(1 s, one interval) × 2^(n−1), the pause 1.5 w with random 0.5
    const expected = [1, 2, 3].map((n) => Math.floor(1.5 * (1000 / DECREASE ** n) * 2 ** (n - 1)));
    expect(pauses).toEqual(expected);
    // after the pause the probe may go at once
    expect(rate.readyAt(T0 + 300_000)).toBe(T0 + 300_000 + pauses[2]!);
  });

  it('keeps the learned rate and the backoff across a single success', () => {
    const rate = new AdaptiveRate(() => 0.5);
    rate.onHeaderless();
    const first = rate.onRefused(T0);
    rate.onAccepted(true);
    const learned = rate.rate!;
    const second = rate.onRefused(T0 + 10_000);
    expect(second).toBeGreaterThan(first * 2);
    expect(rate.rate).toBeCloseTo(learned * DECREASE, 10);
  });

  it('forgets one refusal of the streak per STREAK_DECAY accepted requests', () => {
    const rate = new AdaptiveRate(() => 0);
    rate.onHeaderless();
    rate.onRefused(T0);
    rate.onRefused(T0 + 1);
    for (let i = 0; i < 2 * STREAK_DECAY; i += 1) rate.onAccepted(false);
    const interval = 1000 / (rate.rate! * DECREASE);
    // the streak is back to 0: the next refusal is the first of a row again
    expect(rate.onRefused(T0 + 2)).toBeLessThanOrEqual(Math.ceil(interval));
  });

  it('raises the rate additively, and only while requests wait for it', () => {
    const rate = new AdaptiveRate(() => 0.5);
    rate.onHeaderless();
    rate.onAccepted(false);
    expect(rate.rate).toBe(FLOOR_PLAN_RATE);
    for (let i = 0; i < 60; i += 1) rate.onAccepted(true);
    expect(rate.rate).toBeCloseTo(FLOOR_PLAN_RATE * (1 + 60 * INCREASE), 10);
  });

  it('never pauses longer than a minute, nor paces slower than one request a minute', () => {
    const rate = new AdaptiveRate(() => 0.999_999);
    rate.onHeaderless();
    let pause = 0;
    for (let i = 0; i < 30; i += 1) pause = rate.onRefused(T0 + i);
    expect(pause).toBeLessThanOrEqual(MAX_PAUSE_MS);
    expect(rate.rate).toBeCloseTo(1 / 60, 10);
  });

  it('lets rate headers win again, unless a refusal without them came lately (a stricter gateway)', () => {
    const rate = new AdaptiveRate(() => 0.5);
    rate.onHeaderless();
    rate.onHeaders(T0);
    expect(rate.rate).toBeNull();
    rate.onRefused(T0);
    rate.onHeaders(T0 + 60_000);
    expect(rate.rate).not.toBeNull();
    rate.onHeaders(T0 + 11 * 60_000);
    expect(rate.rate).toBeNull();
  });
});
