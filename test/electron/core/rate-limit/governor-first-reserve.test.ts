/**
 * Issue 34, the ban at the first window change with 16 devices (shared-key-sim.ts, the starts of
 * the bench's 16 app cores: spread over 0–100 or 0–200 ms; each device's clock seconds off the
 * service's). Before a step between windows is known the devices hold the first reset up to about
 * two seconds apart: devices refused in window 0 hold their refusal's end, late starters come
 * back when their `Retry-After` ends, and of a burst of first answers that straddles a second of
 * the service's clock the later ones hold it a second before the others. On main (c244f00) the
 * first ones back took all 60 values of window 1 before the others came back, and each of those
 * was refused while the key was told to wait: 12–14 refused in window 1, and the key banned in
 * every one of these runs (the fake-clock grid: 29 banned runs of 192 at 16 devices). The rule
 * (device-share.ts, reserveUntil): in the window after its first, a device keeps a reserve until
 * every other device can be back.
 */
import { describe, expect, it } from 'vitest';
import { clockOffset as offset, simulateSharedKey } from './shared-key-sim';

/** Runs of the grid banned on main: one-way latency, starts spread over, first request into a second, seed. */
const CASES: Array<{ latency: [number, number]; spread: number; phase: number; seed: number }> = [
  { latency: [2, 15], spread: 100, phase: 0, seed: 10 },
  { latency: [2, 15], spread: 100, phase: 900, seed: 3 },
  { latency: [2, 15], spread: 100, phase: 900, seed: 4 },
  { latency: [2, 15], spread: 200, phase: 0, seed: 5 },
  { latency: [2, 15], spread: 200, phase: 900, seed: 12 },
  { latency: [5, 30], spread: 100, phase: 900, seed: 4 },
];

describe('16 devices on one key: the first window change keeps values for the devices still to come back (issue 34)', () => {
  it('window 1 refuses nothing and the key is never banned in the runs banned before', async () => {
    const failed: string[] = [];
    for (const { latency, spread, phase, seed } of CASES) {
      const report = await simulateSharedKey({
        devices: 16,
        creations: 300,
        windowMs: 10_000,
        seed,
        latencyMs: latency,
        startPhaseMs: phase,
        startSpreadMs: spread,
        clockOffsetMs: offset,
        stopOnBan: true,
      });
      const refused = report.perWindow[1]?.refused ?? 0;
      if (refused > 0 || report.bans > 0 || (!report.once && report.bans === 0))
        failed.push(
          `${latency.join('–')} ms, over ${spread} ms, phase ${phase}, seed ${seed}: ` +
            `${refused} refused in window 1, ${report.bans} bans${report.once ? '' : ', not every animal once'}`,
        );
    }
    expect(failed).toEqual([]);
  }, 120_000);
});
