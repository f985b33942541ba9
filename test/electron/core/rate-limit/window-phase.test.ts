/**
 * Issue 34: when the service's windows really end, from when the answers came (rate-window.ts,
 * WindowPhase), rather than from the whole-second `X-RateLimit-Reset` alone.
 */
import { describe, expect, it } from 'vitest';
import { RateWindow, WindowPhase } from '../../../../electron/core/rate-limit/rate-window';
import { simulateSharedKey } from './shared-key-sim';

/** Windows of 10 s whose reset header is R; on our clock window R really ends at 1000·R − 700 (φ = −700). */
const R0 = 1_900_000_000;
const end = (reset: number): number => 1000 * reset - 700;

describe('RateWindow: the first reset, before any step is known', () => {
  // The service's clock runs exactly ours (offset 0); the window began 900 ms into its second
  // S, so its reset header says S + 11 (10 s windows). Answers of 10 ms round trips: the first
  // at S + 0.905, a second that crossed the service's second at S + 1.003.
  const S = 1_900_000_000_000;
  const reset = S / 1000 + 11;
  const answer = (at: number, fields: Record<string, string> = {}) => ({
    get: (name: string) =>
      ({
        'X-RateLimit-Limit': '60',
        'X-RateLimit-Remaining': '50',
        'X-RateLimit-Reset': String(reset),
        Date: new Date(Math.floor(at / 1000) * 1000).toUTCString(),
        ...fields,
      })[name] ?? null,
  });
  function held(shared: boolean): number | null {
    const window = new RateWindow();
    window.observe(answer(S + 905), S + 910, S + 900, false, shared);
    window.observe(answer(S + 1003), S + 1008, S + 998, false, shared);
    return window.resetAt;
  }

  it('alone: the header’s reset through the skew bound, tight once an answer crossed a second', () => {
    // the second answer, stamped S + 1 and received at S + 1.008: the reset is at most 8 ms late
    expect(held(false)).toBe(1000 * reset + 8);
  });

  it('while others use the key: the latest end the first answer allows, as every device of that burst holds it (issue 34)', () => {
    // received at S + 0.910 with Date S: the reset is at most 11 s after that receipt
    expect(held(true)).toBe(S + 910 + 11_000);
  });

  // A refusal bounds its own window's end by its Retry-After (WindowPhase): refused at S + 1.901,
  // 8.999 s before the end, Retry-After 9 s. That bound is exact here, but only the refused
  // device has it. Before a step is known, the devices that were not refused hold the first
  // answer's latest end, about a second later, and come back then: on main the refused ones
  // came back that much sooner and took window 1 before the others came (16 devices starting
  // over 0.1 s on the fake clock: two of them took 12 and 18 there and were done at 11.4 s, Jain
  // 0.74; issue 34).
  const refusal = (at: number) => answer(at, { 'X-RateLimit-Remaining': '0', 'Retry-After': '9' });
  function heldAfterRefusal(shared: boolean): number | null {
    const window = new RateWindow();
    window.observe(answer(S + 905), S + 910, S + 900, false, shared);
    window.observe(refusal(S + 1901), S + 1906, S + 1896, true, shared);
    return window.resetAt;
  }

  it('refused, alone: the end its Retry-After allows', () => {
    expect(heldAfterRefusal(false)).toBe(S + 1906 + 9000);
  });

  it('refused while others use the key, before a step is known: the first answer’s latest end, as the others hold it (issue 34)', () => {
    expect(heldAfterRefusal(true)).toBe(S + 910 + 11_000);
  });
});

describe('WindowPhase', () => {
  it('bounds every window’s end by the answer that came soonest after a window began, once the step is seen', () => {
    const phase = new WindowPhase();
    // the key's first request: counted at the window's start, answered 30 ms later
    phase.observe(R0, 60, end(R0) - 10_000 + 10, end(R0) - 10_000 + 30, -Infinity);
    expect(phase.endAt(R0)).toBeNull(); // one reset seen: the step is not known
    // an answer in the next window, 1.2 s after its start
    phase.observe(R0 + 10, 60, end(R0) + 1180, end(R0) + 1200, -Infinity);
    for (const reset of [R0, R0 + 10, R0 + 40]) {
      const at = phase.endAt(reset)!;
      expect(at).toBeGreaterThanOrEqual(end(reset));
      expect(at).toBeLessThanOrEqual(end(reset) + 30);
    }
  });

  it('while the key is shared: the latest answer of the burst, not the soonest, nor a close sent after a hold (issue 34)', () => {
    const phase = new WindowPhase();
    const start = end(R0) - 10_000;
    // a burst in window R0, each request sent as the answer before came: the soonest 10 ms after
    // the window began, the latest 70 ms after; then a close held 25 ms, answered at 99 ms
    for (const [sent, received] of [
      [5, 10],
      [10, 40],
      [40, 70],
      [95, 99],
    ])
      phase.observe(R0, 60, start + sent!, start + received!, -Infinity);
    // back after the wait, 1.2 s into the next window: the step is known
    phase.observe(R0 + 10, 60, end(R0) + 1180, end(R0) + 1200, -Infinity);
    expect(phase.endAt(R0 + 10)).toBe(end(R0 + 10) + 10);
    // each device of the burst holds about the same end, however late its own first answer came
    expect(phase.endAt(R0 + 10, true)).toBe(end(R0 + 10) + 70);
  });

  it('a refusal in a used-up window bounds its end by its Retry-After, even before the step is seen', () => {
    const phase = new WindowPhase();
    // refused 4.6 s before the end: Retry-After 5 s, answered 10 ms after the service decided
    phase.observe(R0, 60, end(R0) - 4610, end(R0) - 4590, -Infinity, 5);
    expect(phase.endAt(R0)).toBe(end(R0) + 410);
    expect(phase.endAt(R0 + 10)).toBeNull();
  });

  it('starts again when an answer contradicts the model, or the limit changes; steps not a whole multiple are not taken', () => {
    const phase = new WindowPhase();
    phase.observe(R0, 60, end(R0) - 9990, end(R0) - 9970, -Infinity);
    phase.observe(R0 + 10, 60, end(R0) + 2000, end(R0) + 2020, -Infinity);
    expect(phase.endAt(R0 + 10)).toBe(end(R0 + 10) + 30);
    // sent after that end and still counted in window R0 + 10: the windows are not what we took them for
    phase.observe(R0 + 10, 60, end(R0 + 10) + 100, end(R0 + 10) + 120, -Infinity);
    expect(phase.endAt(R0 + 10)).toBeNull();
    // another limit (the day's window): forgotten
    const day = new WindowPhase();
    day.observe(R0, 60, end(R0) - 9990, end(R0) - 9970, -Infinity);
    day.observe(R0 + 10, 60, end(R0) + 10, end(R0) + 30, -Infinity);
    day.observe(R0 + 86_400, 1000, end(R0) + 50, end(R0) + 70, -Infinity);
    expect(day.endAt(R0 + 10)).toBeNull();
    // resets 10 and 11 s apart (windows of 10.5 s): no step is taken
    const uneven = new WindowPhase();
    for (const reset of [R0, R0 + 10, R0 + 21])
      uneven.observe(reset, 60, 1000 * reset - 9000, 1000 * reset - 8990, -Infinity);
    expect(uneven.endAt(R0 + 21)).toBeNull();
  });

  it('an end earlier than the header allows (the reset less a second, less the skew’s upper bound) is not taken', () => {
    const phase = new WindowPhase();
    phase.observe(R0, 60, end(R0) - 9990, end(R0) - 9970, -Infinity);
    phase.observe(R0 + 10, 60, end(R0) + 10, end(R0) + 30, 1000 * (R0 + 10) - 500);
    expect(phase.endAt(R0 + 10)).toBeNull();
  });
});

describe('one device on a Free key learns when its windows end (fake clock)', () => {
  // Before: the reset header alone, up to a second late each window; with 2–15 ms one way (60
  // creations one after another take about a second) 42.1 s (1.053–1.054 ×) in the 6 seeds
  // whose first request fell 0 ms into a second (the header a whole second late).
  it('300 creations, 2–15 ms one way, first request 0/500/900 ms into a second: ≤ 1.05 × the ideal, no refusal', async () => {
    const runs: string[] = [];
    for (const startPhaseMs of [0, 500, 900]) {
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const report = await simulateSharedKey({
          devices: 1,
          creations: 300,
          windowMs: 10_000,
          seed,
          latencyMs: [2, 15],
          startPhaseMs,
          clockOffsetMs: () => 1234.5,
        });
        expect({ seed, startPhaseMs, refused: report.refused, once: report.once }).toEqual({
          seed,
          startPhaseMs,
          refused: 0,
          once: true,
        });
        if (report.drainMs / 40_000 > 1.05) runs.push(`phase ${startPhaseMs} seed ${seed}: ${report.drainMs} ms`);
      }
    }
    expect(runs).toEqual([]);
  }, 60_000);
});
