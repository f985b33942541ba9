/**
 * Issue 34, the first window change with 16 devices whose starts are spread as the bench's 16 app
 * cores are (over 0–100 ms, one-way latencies of 2–15 ms, each device's clock seconds off the
 * service's; shared-key-sim.ts). Window 0 is used up within its first ~100 ms, and the requests of
 * a few devices that had already had an answer arrive after it and are refused. Each device then
 * waits for the first reset; no step between windows is known yet (rate-window.ts, WindowPhase),
 * so while others use the key each holds the latest end its first answer allows (its receipt +
 * Reset − Date): for the devices of one burst about a second after the header's reset.
 */
import { describe, expect, it } from 'vitest';
import { clockOffset as offset, simulateSharedKey } from './shared-key-sim';

const CASES = [0, 500].flatMap((phase) => [1, 2, 3, 4, 5, 6].map((seed) => ({ phase, seed })));

describe('16 devices starting within 100 ms on one key: the first window change (issue 34)', () => {
  // On main (27226df) a device refused in window 0 held the first reset as its refusal's
  // `Retry-After` showed it (the window's real end, to the refusal's round trip), not as the
  // latest end its first answer allows, as the others did: it came back about a second before
  // them, those devices took window 1's 60 values within ~250 ms, and each device coming back a
  // second later was refused (seed 6: 10 refused in window 1, in phases 0 and 500 alike; the
  // bench's 16-device runs: 10–11 in window 1 of every run). A fix that made the devices agree
  // (68fcf92) banned the key in 1 of its 10 bench runs and was reverted (performance.md §6).
  // Passes since the first window change keeps a reserve for the devices still to come back
  // (device-share.ts, reserveUntil): the first ones back leave it, whenever they come.
  it('window 1 refuses at most 3 requests (1 % of the 300) in every seed, and the key is never banned', async () => {
    const failed: string[] = [];
    for (const { phase, seed } of CASES) {
      const report = await simulateSharedKey({
        devices: 16,
        creations: 300,
        windowMs: 10_000,
        seed,
        latencyMs: [2, 15],
        startPhaseMs: phase,
        startSpreadMs: 100,
        clockOffsetMs: offset,
        stopOnBan: true,
      });
      const refused = report.perWindow[1]?.refused ?? 0;
      if (refused > 3 || report.bans > 0)
        failed.push(`phase ${phase} seed ${seed}: ${refused} refused in window 1, ${report.bans} bans`);
    }
    expect(failed).toEqual([]);
  }, 120_000);
});
