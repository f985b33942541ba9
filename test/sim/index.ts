/**
 * The simulator of event days (docs/simulation.md): `runDays` runs `days` days drawn from one
 * seed with fast-check (the day's computers and service, its steps as model-based commands,
 * the order of every message between processes from its scheduler) and, when one fails,
 * shrinks it to the fewest steps that still fail and says how to replay it.
 */
import fc from 'fast-check';
import { stepArbs } from './day/commands';
import { DayFailed, type FindingKind } from './day/checks';
import { Day, type DayFigures, type DaySetup } from './day/day';
import { emptyTotals } from './totals';

import { type Totals } from './totals';

export type { DayFigures } from './day/day';
export { addTotals, emptyTotals, summaryLine, type Totals } from './totals';

export const setupArb: fc.Arbitrary<DaySetup> = fc.record({
  seed: fc.integer({ min: 0, max: 0x7fffffff }),
  // One to four computers with one to three windows each, the smaller days more often (they cost less to run).
  windows: fc
    .constantFrom(1, 1, 1, 2, 2, 2, 3, 3, 4)
    .chain((computers) => fc.array(fc.constantFrom(1, 1, 1, 2, 2, 3), { minLength: computers, maxLength: computers })),
  honoursKeys: fc.boolean(),
  gateway: fc.boolean(),
  plan: fc.constantFrom('pro' as const, 'pro' as const, 'pro' as const, 'free' as const),
});

export interface RunOptions {
  seed: number;
  days: number;
  /** fast-check's path of a failing day (printed with it): replays that day alone. */
  path?: string;
  /** With `path`: which of the day's steps ran (fast-check's `replayPath` of its commands, printed with it). */
  steps?: string;
  /** The most steps in a day. */
  maxSteps?: number;
  /** Told after each day that passed (before any failure). */
  onDay?: (figures: DayFigures) => void;
  /** Shrink a failing day (default true). */
  shrink?: boolean;
}

export interface RunResult {
  totals: Totals;
  failure: {
    seed: number;
    path: string;
    /** The shortest day found that still fails. */
    report: string;
    kinds: Partial<Record<FindingKind, number>>;
  } | null;
}

export function addFigures(totals: Totals, figures: DayFigures): void {
  totals.days += 1;
  totals.animals += figures.animals;
  totals.steps += figures.steps;
  totals.virtualMs += figures.virtualMs;
  totals.tasks += figures.tasks;
  totals.requests += figures.requests;
  totals.checksAnswered += figures.checksAnswered;
  totals.staffDuplicates += figures.staffDuplicates;
  for (const [kind, n] of Object.entries(figures.counts)) totals.counts[kind] = (totals.counts[kind] ?? 0) + n;
}

/** Runs one day; throws DayFailed when a promise was broken. */
export async function runDay(
  setup: DaySetup,
  steps: Iterable<fc.AsyncCommand<Record<string, never>, Day>>,
  scheduler: fc.Scheduler,
): Promise<DayFigures> {
  const day = new Day(setup, scheduler);
  try {
    await day.start();
    await fc.asyncModelRun(() => ({ model: {}, real: day }), steps);
    await day.end();
    return day.figures();
  } finally {
    await day.dispose();
  }
}

export async function runDays(options: RunOptions): Promise<RunResult> {
  const totals = emptyTotals();
  let failed: DayFailed | null = null;
  const property = fc.asyncProperty(
    setupArb,
    fc.commands(stepArbs, {
      maxCommands: options.maxSteps ?? 40,
      size: 'max',
      ...(options.steps ? { replayPath: options.steps } : {}),
    }),
    fc.scheduler(),
    async (setup, steps, scheduler) => {
      try {
        const figures = await runDay(setup, steps, scheduler);
        if (!failed) {
          addFigures(totals, figures);
          options.onDay?.(figures);
        }
      } catch (error) {
        if (!failed && error instanceof DayFailed) failed = error;
        throw error;
      }
    },
  );
  const details = await fc.check(property, {
    seed: options.seed,
    // A path starts with the index of its day among the seed's: fast-check walks up to it.
    numRuns: options.path ? Number(options.path.split(':')[0]) + 1 : options.days,
    ...(options.path ? { path: options.path } : {}),
    endOnFailure: options.shrink === false,
  });
  if (!details.failed) return { totals, failure: null };
  const first = failed as DayFailed | null;
  const kinds: Partial<Record<FindingKind, number>> = {};
  for (const finding of first?.findings ?? []) kinds[finding.kind] = (kinds[finding.kind] ?? 0) + 1;
  totals.lost += kinds.lost ?? 0;
  totals.twice += kinds.twice ?? 0;
  totals.untrue += kinds.untrue ?? 0;
  totals.waits += kinds.waits ?? 0;
  totals.keys += kinds.key ?? 0;
  const [setup, steps] = (details.counterexample ?? []) as [DaySetup, unknown, unknown];
  const error = details.errorInstance;
  const replayPath = /replayPath="([^"]*)"/.exec(String(steps))?.[1] ?? '';
  const report = [
    `a day failed: seed ${details.seed}, path "${details.counterexamplePath}"`,
    `replay: npm run simulate -- --seed ${details.seed} --path "${details.counterexamplePath}" --steps "${replayPath}"`,
    `the day: ${JSON.stringify(setup)}`,
    `its steps (shortest found, ${details.numShrinks} shrinks): ${String(steps)}`,
    error instanceof Error ? error.message : String(error),
  ].join('\n');
  return {
    totals,
    failure: { seed: details.seed, path: details.counterexamplePath ?? '', report, kinds },
  };
}
