/**
 * Issue 34: devices on one key agree on when a window starts. `X-RateLimit-Reset` and `Date`
 * carry whole seconds, so each device knows the service's clock only as well as its own
 * answers bracket a second boundary of it; a device whose answers all fell at the same point of
 * the service's second holds a reset up to a second later than one whose answers crossed a
 * boundary. On the fake clock: devices each with its own clock offset, the first request 900 ms
 * into a second of the service's clock (shared-key-sim.ts).
 */
import { describe, expect, it } from 'vitest';
import { simulateSharedKey, type SimReport } from './shared-key-sim';

/** Clock offsets from −2.5 s to +2.5 s, with fractions of a millisecond. */
const offset = (device: number): number => ((device * 7919) % 5000) - 2500 + device * 0.37;

/**
 * Per window of the drain after the first (the four the 300 creations need): the reset each
 * device held for it last, on the service's clock (ms from the start).
 */
function viewsOfWindows(report: SimReport) {
  return report.windows.slice(0, 4).map((window) => ({
    ...window,
    views: report.resetViews
      .map((views) =>
        views.filter((v) => v.resetMs >= window.resetHeaderMs - 1000 && v.resetMs < window.resetHeaderMs + 1500).at(-1),
      )
      .filter((view) => view !== undefined)
      .map((view) => view.resetMs),
  }));
}

/**
 * How far apart the devices hold each reset (of the first `windows` after the first), for 6
 * seeds; fails on any view before the service's reset.
 */
async function disagreements(devices: number, toleranceMs: number, windowCount: number): Promise<string[]> {
  const found: string[] = [];
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const report = await simulateSharedKey({
      devices,
      creations: 300,
      windowMs: 10_000,
      seed,
      startPhaseMs: 900,
      clockOffsetMs: offset,
      stopOnBan: true,
    });
    const windows = viewsOfWindows(report)
      .slice(0, windowCount)
      .filter((window) => window.views.length >= 2);
    expect(windows.length, `seed ${seed}: windows waited for by several devices`).toBe(windowCount);
    for (const { startMs, resetHeaderMs, views } of windows) {
      // never before the reset the service gave (which is at or after the window's real start)
      expect(Math.min(...views), `seed ${seed}, window at ${startMs} ms`).toBeGreaterThanOrEqual(resetHeaderMs);
      const spread = Math.round(Math.max(...views) - Math.min(...views));
      if (spread > toleranceMs) found.push(`seed ${seed}, window at ${startMs} ms: ${spread} ms apart`);
    }
  }
  return found;
}

describe('devices on one key agree on when a window starts (issue 34)', () => {
  // Before: seeds 2, 3 and 4 held the first reset 893, 886 and 881 ms apart (the devices whose
  // answers crossed a second of the service's clock against those whose did not). 60 values
  // among 16 devices leave each one or two requests to learn the clock with in the first window
  // (pacing-gate.ts), so they agree to within about a quarter of a second, not tens of ms. Not
  // fixed here: these runs still end in a ban, as before (5 seeds of 6 then, 6 now): a refusal
  // at the end of one window's burst makes the key wait past the moment all 16 come back to the
  // next (docs/performance.md section 6).
  it('16 devices, clocks up to 2.5 s apart, first request 900 ms into a second: the first reset held within 300 ms by all, none before the service’s', async () => {
    expect(await disagreements(16, 300, 1)).toEqual([]);
  }, 120_000);

  // Enough values for every device to halve its bounds four times or more in the first window.
  it('8 devices, the same: each of the four resets of the drain held within 60 ms by all', async () => {
    expect(await disagreements(8, 60, 4)).toEqual([]);
  }, 120_000);
});
