/**
 * Issue 34, the sixth window at 4 and 8 devices, on the fake clock (shared-key-sim.ts). 300
 * creations are exactly five windows of 60, so a value left unused in any of them costs a
 * sixth window (1.28 × the ideal). The bench's one failing 4-device run (1.278 ×, three sittings
 * in a row) had this shape: a window's opener (the device whose request took its first value,
 * the one that closes it) ran out of tasks before the others stopped, and the others held the
 * last values back for it.
 *
 * On main (03749b6) the opener that is down to the tasks it keeps for the close sent one of them
 * every 4 of its round trips, whatever the others still had to take, and before any other device
 * was counted in the window it sent them all at once. The rules (device-share.ts, keepForClose):
 * it holds them until the others, at the rate it measured, will have taken what it last saw
 * remain, and while nobody else is counted yet it holds them through the time devices join.
 */
import { describe, expect, it } from 'vitest';
import { clockOffset as offset, simulateSharedKey } from './shared-key-sim';

async function fiveWindows(devices: number, latencyMs: [number, number], spreadMs: number, seeds: number[]) {
  const failed: string[] = [];
  for (const seed of seeds) {
    const report = await simulateSharedKey({
      devices,
      creations: 300,
      windowMs: 10_000,
      seed,
      latencyMs,
      startPhaseMs: 0,
      startSpreadMs: spreadMs,
      clockOffsetMs: offset,
    });
    const accepted = report.perWindow.slice(0, 5).map((w) => w?.accepted ?? 0);
    if (accepted.some((n) => n !== 60) || report.bans > 0 || !report.once)
      failed.push(`seed ${seed}: windows ${accepted.join(' ')}, ${report.bans} bans${report.once ? '' : ', not once'}`);
  }
  return failed;
}

describe('the opener holds the tasks it keeps until the others have taken the burst (issue 34)', () => {
  // main: windows 3 and 4 took 58 59, 59 59, 58 58, 59 60 (4 devices, seeds 1, 4, 7, 9) and 57 60,
  // 58 56 (8 devices, seeds 3, 6): the opener sent its kept tasks one per 4 round trips through a
  // burst of 15 or more, and had none left when the others stopped.
  it.each([
    [4, 200, [1, 4, 7, 9]],
    [8, 100, [3, 6]],
  ])(
    '%i devices, 2–15 ms one way, starts over %i ms: each of the five windows accepts 60, no ban, every animal once',
    async (devices, spreadMs, seeds) => {
      expect(await fiveWindows(devices, [2, 15], spreadMs, seeds)).toEqual([]);
    },
    60_000,
  );

  // main: windows 3 and 4 took 57 58, 59 58, 58 59, 58 58 (seeds 3, 4, 6, 12), windows 2–4 59 59 58
  // (seed 7): the device back first opened the window with 4 tasks left and sent them before any
  // other device came.
  it('4 devices, 1–4 ms one way, starts over 100 ms: each of the five windows accepts 60, no ban, every animal once', async () => {
    expect(await fiveWindows(4, [1, 4], 100, [3, 4, 6, 7, 12])).toEqual([]);
  }, 60_000);
});
