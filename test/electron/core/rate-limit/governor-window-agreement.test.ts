/**
 * Issue 34 (open): devices on one key should agree on when a window starts. `X-RateLimit-Reset`
 * and `Date` carry whole seconds, so each device knows the service's clock only as well as its
 * own answers bracket a second boundary of it; a device whose answers all fell at the same
 * point of the service's second holds a reset up to a second later than one whose answers
 * crossed a boundary. On the fake clock: 16 devices, each with its own clock offset, the first
 * request 900 ms into a second of the service's clock (shared-key-sim.ts).
 */
import { describe, expect, it } from 'vitest';
import { simulateSharedKey, type SimReport } from './shared-key-sim';

/** Clock offsets from −2.5 s to +2.5 s, with fractions of a millisecond. */
const offset = (device: number): number => ((device * 7919) % 5000) - 2500 + device * 0.37;

/** The first reset after the start: the one each device held for it last, on the service's clock (ms from the start). */
function viewsOfFirstReset(report: SimReport) {
  const window = report.windows[0]!;
  const views = report.resetViews
    .map((held) =>
      held.filter((v) => v.resetMs >= window.resetHeaderMs - 1000 && v.resetMs < window.resetHeaderMs + 1500).at(-1),
    )
    .filter((view) => view !== undefined)
    .map((view) => view.resetMs);
  return { ...window, views };
}

describe('devices on one key agree on when a window starts (issue 34, open)', () => {
  // Today seeds 2, 3 and 4 hold the first reset 893, 886 and 881 ms apart (the devices whose
  // answers crossed a second of the service's clock against those whose did not), and 5 seeds
  // of 6 end in a ban. `it.fails`: this passes while the disagreement is there and fails the day
  // it is fixed; then make it an `it`. What was tried and why it was not kept:
  // docs/performance.md section 6.
  it.fails(
    '16 devices, clocks up to 2.5 s apart, first request 900 ms into a second: all hold the first reset within 100 ms of each other, none before the service’s',
    async () => {
      const disagreements: string[] = [];
      for (const seed of [1, 2, 3, 4, 5, 6]) {
        const report = await simulateSharedKey({
          devices: 16,
          creations: 300,
          windowMs: 10_000,
          seed,
          startPhaseMs: 900,
          clockOffsetMs: offset,
          stopOnBan: true,
        });
        const { startMs, resetHeaderMs, views } = viewsOfFirstReset(report);
        expect(views.length, `seed ${seed}`).toBe(16);
        // never before the reset the service gave (which is at or after the window's real start)
        expect(Math.min(...views), `seed ${seed}, window at ${startMs} ms`).toBeGreaterThanOrEqual(resetHeaderMs);
        const spread = Math.round(Math.max(...views) - Math.min(...views));
        if (spread > 100) disagreements.push(`seed ${seed}: ${spread} ms apart`);
      }
      expect(disagreements).toEqual([]);
    },
    120_000,
  );
});
