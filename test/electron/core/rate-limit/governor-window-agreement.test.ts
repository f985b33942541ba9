/**
 * Issue 34: devices on one key agree on when a window starts. `X-RateLimit-Reset` and `Date`
 * carry whole seconds, so each device knows the service's clock only as well as its own
 * answers bracket a second boundary of it; a device whose answers all fell at the same point of
 * the service's second holds a reset up to a second later than one whose answers crossed a
 * boundary. On the fake clock: 16 devices, each with its own clock offset, the first request
 * 900 ms into a second of the service's clock (shared-key-sim.ts).
 */
import { describe, expect, it } from 'vitest';
import { simulateSharedKey, type SimReport } from './shared-key-sim';

/** Clock offsets from −2.5 s to +2.5 s, with fractions of a millisecond. */
const offset = (device: number): number => ((device * 7919) % 5000) - 2500 + device * 0.37;

/** Per window after the first: the reset each device held for it last, on the service's clock (ms from the start). */
function viewsOfWindows(report: SimReport) {
  return report.windows.map((window) => ({
    ...window,
    views: report.resetViews
      .map((views) =>
        views.filter((v) => v.resetMs >= window.resetHeaderMs - 1000 && v.resetMs < window.resetHeaderMs + 1500).at(-1),
      )
      .filter((view) => view !== undefined)
      .map((view) => view.resetMs),
  }));
}

describe('devices on one key agree on when a window starts (issue 34)', () => {
  it('16 devices, clocks up to 2.5 s apart, first request 900 ms into a second: every device holds each reset within 100 ms of the others, none before the service’s', async () => {
    const disagreements: string[] = [];
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const report = await simulateSharedKey({
        devices: 16,
        creations: 300,
        windowMs: 10_000,
        seed,
        startPhaseMs: 900,
        clockOffsetMs: offset,
      });
      const windows = viewsOfWindows(report).filter((window) => window.views.length >= 2);
      expect(windows.length, `seed ${seed}: windows waited for by several devices`).toBeGreaterThanOrEqual(3);
      for (const { startMs, resetHeaderMs, views } of windows) {
        // never before the reset the service gave (which is at or after the window's real start)
        expect(Math.min(...views), `seed ${seed}, window at ${startMs} ms`).toBeGreaterThanOrEqual(resetHeaderMs);
        const spread = Math.round(Math.max(...views) - Math.min(...views));
        if (spread > 100) disagreements.push(`seed ${seed}, window at ${startMs} ms: ${spread} ms apart`);
      }
    }
    expect(disagreements).toEqual([]);
  }, 120_000);
});
