/**
 * One worker of `npm run simulate` (test/sim/cli.ts), run by vitest with
 * test/sim/vitest.simulate.config.ts: it runs the chunks of days it was given (SIM_WORK) one
 * after the other and appends one JSON line per chunk to its output file, which the command
 * line reads (progress, totals, failures).
 */
import { appendFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { runDays } from '../index';
import { type ChunkReport, type Work } from './work';

const work = JSON.parse(process.env.SIM_WORK ?? 'null') as Work | null;

it('runs the days it was given', async () => {
  expect(work, 'SIM_WORK (set by test/sim/cli.ts)').not.toBeNull();
  for (const chunk of work!.chunks) {
    const started = performance.now();
    const result = await runDays({
      seed: chunk.seed,
      days: chunk.days,
      ...(chunk.path ? { path: chunk.path } : {}),
      ...(chunk.steps ? { steps: chunk.steps } : {}),
    });
    const report: ChunkReport = {
      chunk: chunk.index,
      seed: chunk.seed,
      totals: result.totals,
      failure: result.failure,
      ms: Math.round(performance.now() - started),
    };
    appendFileSync(work!.out, `${JSON.stringify(report)}\n`);
    if (result.failure) return;
  }
});
