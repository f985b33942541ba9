/**
 * Issue 34 on a realistic fake clock: sixteen devices on one Free key that start over 3 s (as
 * the bench's 16 app cores do), one-way latencies of 2–15 ms, each device's clock seconds off
 * the service's, the first request 500 or 900 ms into a second of the service's clock
 * (shared-key-sim.ts). The devices whose first request comes after the first window is used up
 * know nothing yet and are refused there (every 16-device bench run has such refusals in window
 * 0); the service counts every request sent while the key is told to wait, and only a request
 * let through after the wait resets that count (test/service/rate-limits.ts). A refusal made in
 * a window's last second-fraction makes the key wait up to a second into the next window
 * (`Retry-After` is rounded up to whole seconds), so devices coming back at the reset add to
 * the count: more than 10 bans the key.
 */
import { describe, expect, it } from 'vitest';
import { clockOffset as offset, simulateSharedKey } from './shared-key-sim';

async function lateStarters(seed: number, startPhaseMs: number) {
  return simulateSharedKey({
    devices: 16,
    creations: 300,
    windowMs: 10_000,
    seed,
    latencyMs: [2, 15],
    startPhaseMs,
    startSpreadMs: 3000,
    clockOffsetMs: offset,
  });
}

const CASES = [500, 900].flatMap((phase) => [1, 2, 3, 4, 5, 6].map((seed) => ({ phase, seed })));

describe('devices that start over seconds on one key (issue 34, realistic fake clock)', () => {
  // Before issue 34's change: 8 of these 12 runs had requests refused while told to wait by a
  // refusal of the window before (13–16 in window 1 in six of them), and 7 were banned. After
  // its third attempt (device-share.ts returnAt, rate-window.ts WindowPhase): 7 of 12 still had
  // such refusals, one request each but for phase 900 seed 3 (14 in window 1: banned, the 10 of
  // window 0 from the late starters, then the first device back). They came from devices that
  // had met no other between two answers (one that took window 0's last values after the
  // others had finished), which came back at the reset + 100 ms
  // as one device alone does. Now a window that ran out with fewer of a device's requests than
  // its limit counted in it makes the device come back as a shared key's devices do
  // (device-share.ts, keyShared): none.
  it('16 devices starting over 3 s: no device sends in a window while a refusal of the last window still makes the key wait', async () => {
    const carried: string[] = [];
    for (const { phase, seed } of CASES) {
      const report = await lateStarters(seed, phase);
      const counts = Array.from(report.perWindow, (w, index) => ({ index, n: w?.carriedOver ?? 0 }));
      const late = counts.filter(({ index, n }) => index > 0 && n > 0).map(({ index, n }) => `window ${index}: ${n}`);
      if (late.length > 0) carried.push(`phase ${phase} seed ${seed}: ${late.join(', ')}`);
    }
    expect(carried).toEqual([]);
  }, 120_000);

  // Before issue 34's change: 7 of these 12 runs banned (10 refused while told to wait in window
  // 0, from the late starters, then 3–16 more in window 1 or later); after its third attempt, 1
  // (phase 900 seed 3, above); now none. With 1–4 ms one way (not asked here) 12 devices start
  // after window 0 is used up in most seeds, and their 12 blind first requests ban the key in
  // window 0 itself, whatever each device does after its first answer.
  it('16 devices starting over 3 s: never banned, every animal created once', async () => {
    const failed: string[] = [];
    for (const { phase, seed } of CASES) {
      const report = await lateStarters(seed, phase);
      if (report.bans > 0 || !report.once) failed.push(`phase ${phase} seed ${seed}: ${report.bans} bans`);
    }
    expect(failed).toEqual([]);
  }, 120_000);
});
