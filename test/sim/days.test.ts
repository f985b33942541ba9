/**
 * The short simulation of `npm test` (issue 33): fixed seeds, 150 event days, every
 * promise checked after every step (docs/simulation.md); a day replays exactly from its seed;
 * and the machine's load changes nothing (the days run on the loop's clock, not the machine's).
 * The long run is `npm run simulate -- --days 10000`.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runDays, summaryLine } from './index';

/** Seeds and days of the short run (about a minute on the team's machines). */
const SHORT_RUN = [
  { seed: 2026_11_01, days: 50 },
  { seed: 2026_11_02, days: 50 },
  { seed: 2026_11_03, days: 50 },
];

async function digests(seed: number, days: number): Promise<string[]> {
  const seen: string[] = [];
  const result = await runDays({ seed, days, onDay: (figures) => seen.push(figures.digest) });
  expect(result.failure?.report ?? null).toBeNull();
  return seen;
}

describe('event days, simulated', () => {
  for (const { seed, days } of SHORT_RUN) {
    it(`seed ${seed}: ${days} days, no animal lost, none sent twice, no untrue screen, nothing left waiting`, async () => {
      const result = await runDays({ seed, days });
      console.log(summaryLine(result.totals));
      // On failure the report says the seed, the path to replay it and the shortest list of steps.
      expect(result.failure?.report ?? null).toBeNull();
      expect(result.totals.days).toBe(days);
      expect(result.totals.animals).toBeGreaterThan(days);
    });
  }

  it('a day replays exactly from its seed', async () => {
    expect(await digests(7, 3)).toEqual(await digests(7, 3));
  });

  it('the machine being busy changes nothing: the same days with a CPU hog beside them', async () => {
    const quiet = await digests(8, 3);
    const hog = spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' });
    try {
      expect(await digests(8, 3)).toEqual(quiet);
    } finally {
      if (hog.pid !== undefined) process.kill(hog.pid);
    }
  });
});
