/**
 * Draining the outbox (issue 7, bench 1): 300 creations queued at once on a Free-plan key
 * whose "minute" is shortened to WINDOW_MS, for three clients one after another, each on a
 * fresh local service with its request log on: ours (governor + service client), a naive
 * client (one at a time, exponential backoff after a 429) and a reactive one (four at a time,
 * Retry-After only after a 429). 429s and bans are counted from the service's request log.
 *
 * Ideal = the time the plan allows for CREATIONS requests: the first PER_WINDOW go at once,
 * then one window per further batch, so (ceil(CREATIONS / PER_WINDOW) - 1) × WINDOW_MS.
 */
import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRequestLog, startService, type RequestLogLine } from '../service/index';
import { drainGoverned } from './clients/governed-client';
import { drainNaive } from './clients/naive-client';
import { makeCreations, type Creation, type DrainOutcome, type DrainTarget } from './clients/post-pet';
import { drainReactive } from './clients/reactive-client';
import type { Bench, BenchResult } from './lib/report';

export const CREATIONS = 300;
/** Free plan: 60 requests per "minute". */
const PER_WINDOW = 60;
/**
 * The shortened "minute". Not 2–3 s: `X-RateLimit-Reset` is whole unix seconds (rounded up),
 * so any client that waits for the reset can lose up to 1 s once per run; with 10 s windows
 * that is at most 2.5 % of the ideal, as it would be well under 1 % with the real 60 s.
 */
export const WINDOW_MS = 10_000;
export const IDEAL_MS = (Math.ceil(CREATIONS / PER_WINDOW) - 1) * WINDOW_MS;
/** A client still draining after this is stopped and reported unfinished (a ban lasts 600 s). */
const DEADLINE_MS = 3 * IDEAL_MS;
const BAN_SECONDS = 600;
const GOAL_RATIO = 1.05;

type Drain = (target: DrainTarget, creations: readonly Creation[]) => Promise<DrainOutcome>;
const CLIENTS: ReadonlyArray<readonly [name: string, drain: Drain]> = [
  ['ours', drainGoverned],
  ['naive', drainNaive],
  ['reactive', drainReactive],
];

interface ClientRun {
  drainMs: number;
  ratioToIdeal: number;
  http429: number;
  bans: number;
  requests: number;
  created: number;
  finished: number;
}

/** Bans started: a 429 whose Retry-After is longer than any window wait, after a line that was not one. */
export function countBans(lines: readonly RequestLogLine[], windowSeconds: number): number {
  let bans = 0;
  let banned = false;
  for (const line of lines) {
    const isBan = line.status === 429 && (line.retryAfter ?? 0) > windowSeconds;
    if (isBan && !banned) bans += 1;
    if (line.status !== 429 || isBan) banned = isBan;
  }
  return bans;
}

async function runClient(name: string, drain: Drain, dir: string): Promise<ClientRun> {
  const key = `bench-drain-${name}`;
  const logFile = join(dir, `${name}.log`);
  const service = await startService({
    keys: { [key]: 'free' },
    minuteMs: WINDOW_MS,
    banSeconds: BAN_SECONDS,
    logFile,
  });
  const deadline = AbortSignal.timeout(DEADLINE_MS);
  setMaxListeners(CREATIONS + 10, deadline); // every queued creation listens for the deadline
  try {
    const creations = makeCreations(CREATIONS, `Drain ${name}`);
    const started = performance.now();
    const outcome = await drain({ url: service.url, key, signal: deadline }, creations);
    const drainMs = performance.now() - started;
    const lines = await readRequestLog(logFile);
    return {
      drainMs,
      ratioToIdeal: drainMs / IDEAL_MS,
      http429: lines.filter((line) => line.status === 429).length,
      bans: countBans(lines, Math.ceil(WINDOW_MS / 1000)),
      requests: lines.length,
      created: lines.filter((line) => line.createdId !== null).length,
      finished: outcome.created === CREATIONS && !deadline.aborted ? 1 : 0,
    };
  } finally {
    await service.stop();
  }
}

function printSideBySide(runs: ReadonlyArray<readonly [string, ClientRun]>): void {
  const metrics = Object.keys(runs[0]?.[1] ?? {}) as (keyof ClientRun)[];
  const cell = (text: string) => text.padStart(10);
  console.log(`${'drain'.padEnd(14)}${runs.map(([name]) => cell(name)).join('')}`);
  for (const metric of metrics) {
    const values = runs.map(([, run]) =>
      cell(Number.isInteger(run[metric]) ? String(run[metric]) : run[metric].toFixed(3)),
    );
    console.log(`${metric.padEnd(14)}${values.join('')}`);
  }
}

/** Node loads its fetch (undici) on first use, ~0.3 s: pay that before any client is timed. */
async function warmUpFetch(): Promise<void> {
  const service = await startService({ keys: {} });
  try {
    await (await fetch(`${service.url}/pets`)).arrayBuffer();
  } finally {
    await service.stop();
  }
}

export async function benchDrain(): Promise<BenchResult> {
  const dir = await mkdtemp(join(tmpdir(), 'adoption-bench-drain-'));
  try {
    await warmUpFetch();
    const runs: Array<readonly [string, ClientRun]> = [];
    for (const [name, drain] of CLIENTS) {
      console.log(`  drain: ${name}…`);
      runs.push([name, await runClient(name, drain, dir)]);
    }
    printSideBySide(runs);
    const figures: Record<string, number> = { idealMs: IDEAL_MS };
    for (const metric of Object.keys(runs[0]?.[1] ?? {}) as (keyof ClientRun)[])
      for (const [name, run] of runs) figures[`${name}.${metric}`] = run[metric];
    const ours = runs.find(([name]) => name === 'ours')?.[1];
    figures.oursMeetsGoal = ours && ours.ratioToIdeal <= GOAL_RATIO && ours.http429 === 0 && ours.bans === 0 ? 1 : 0;
    return {
      name: 'drain',
      description: `${CREATIONS} queued creations, Free plan with a ${WINDOW_MS / 1000} s window: ours vs naive vs reactive`,
      figures,
      settings: {
        creations: CREATIONS,
        plan: `free (${PER_WINDOW} per window)`,
        windowMs: WINDOW_MS,
        idealFormula: '(ceil(creations / perWindow) - 1) × windowMs',
        banAfter: 10,
        banSeconds: BAN_SECONDS,
        deadlineMs: DEADLINE_MS,
        goal: `ours: ratioToIdeal ≤ ${GOAL_RATIO}, 0 × 429, 0 bans`,
        clients:
          'ours = RateLimitGovernor + createServiceClient().createPet, all queued at once; ' +
          'naive = sequential, backoff 1 s × 2^n (max 32 s) after each 429; ' +
          'reactive = 4 in flight, waits Retry-After after a 429, ignores X-RateLimit-Remaining',
        run: 'clients one after another, each on a fresh service',
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const drainBench: Bench = { name: 'drain', run: benchDrain };
