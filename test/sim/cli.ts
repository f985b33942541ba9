/**
 * `npm run simulate -- --days N --seed S`: runs N simulated event days (docs/simulation.md) in
 * parallel workers, then prints the figures and, last, one line:
 * `N days, N animals, N lost, N sent twice, N untrue screens`.
 *
 *   --days N        how many days (default 100)
 *   --seed S        the run's seed (default: drawn, and printed); the same seed runs the same days,
 *                   whatever the number of workers
 *   --path P        with the seed printed beside a failing day: replays that day alone
 *   --steps R       with --path: the steps that ran that day (printed with it)
 *   --workers W     parallel workers (default: 2, or fewer cores)
 *   --hog           runs a CPU hog beside the workers (the verdicts must not change)
 *   --chunk N       days per chunk (default 100)
 *
 * The workers' reports go to sim-results/run-<pid>/ (printed), one folder per run (not under
 * test-results/, which a Playwright run empties).
 *
 * Each worker is a vitest process (test/sim/vitest.simulate.config.ts: the window's Svelte stores
 * are compiled as the renderer's tests compile them) running test/sim/run/days.run.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { addTotals, emptyTotals, summaryLine } from './totals';
import { type Chunk, type ChunkReport, chunkSeed, type Work } from './run/work';

const ROOT = resolve(import.meta.dirname, '../..');
// Each run its own folder: a replay started while a long run goes on leaves that run's reports be.
// Not under test-results/, which Playwright empties when it starts.
const OUT = join(ROOT, 'sim-results', `run-${process.pid}`);

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `Node ${process.versions.node}: the project needs 22.12 or later (run \`. scripts/use-node.sh\` first).`,
  );
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '100' },
    seed: { type: 'string' },
    path: { type: 'string' },
    steps: { type: 'string' },
    workers: { type: 'string' },
    hog: { type: 'boolean', default: false },
    chunk: { type: 'string', default: '100' },
  },
});

function whole(name: string, text: string | undefined, min: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) {
    console.error(`--${name} takes a whole number of at least ${min}, got ${String(text)}`);
    process.exit(2);
  }
  return value;
}

const days = whole('days', values.days, 1);
const seed = values.seed === undefined ? Math.floor(Math.random() * 0x7fffffff) : whole('seed', values.seed, 0);
const chunkDays = whole('chunk', values.chunk, 1);
const workers = Math.max(1, whole('workers', values.workers ?? String(Math.min(2, availableParallelism())), 1));

/** The chunks of the run: each with its own seed, so any chunk (any day) replays alone. */
function chunks(): Chunk[] {
  if (values.path !== undefined)
    return [{ index: 0, seed, days: 1, path: values.path, ...(values.steps ? { steps: values.steps } : {}) }];
  const list: Chunk[] = [];
  for (let index = 0; index * chunkDays < days; index += 1)
    list.push({ index, seed: chunkSeed(seed, index), days: Math.min(chunkDays, days - index * chunkDays) });
  return list;
}

function startWorker(index: number, work: Work): Promise<number> {
  return new Promise((done) => {
    // vitest's own entry, on the Node that runs this command line (scripts/use-node.sh's).
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/sim/vitest.simulate.config.ts'], {
      cwd: ROOT,
      env: { ...process.env, SIM_WORK: JSON.stringify(work), FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr?.on('data', (data: Buffer) => (output += data.toString()));
    child.on('exit', (code) => {
      if (code !== 0 && !readReports(work.out).some((report) => report.failure)) {
        console.error(`worker ${index} ended with ${code}:\n${output.slice(-4000)}`);
      }
      done(code ?? 1);
    });
  });
}

function readReports(file: string): ChunkReport[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ChunkReport);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const all = chunks();
  const count = Math.min(workers, all.length);
  const works: Work[] = Array.from({ length: count }, (_, index) => ({
    chunks: all.filter((chunk) => chunk.index % count === index),
    out: join(OUT, `worker-${index}.jsonl`),
  }));
  console.log(`reports in ${OUT}`);
  console.log(
    values.path !== undefined
      ? `replaying seed ${seed}, path "${values.path}"`
      : `simulating ${days} days from seed ${seed} (${all.length} chunk(s) of ≤ ${chunkDays} days, ${count} worker(s)${values.hog ? ', a CPU hog beside them' : ''})`,
  );
  const hogs: ChildProcess[] = [];
  if (values.hog) {
    for (let i = 0; i < Math.max(1, Math.min(2, availableParallelism())); i += 1)
      hogs.push(spawn(process.execPath, ['-e', 'for (;;) Math.sqrt(Math.random());'], { stdio: 'ignore' }));
  }
  const started = Date.now();
  let shown = 0;
  const progress = setInterval(() => {
    const reports = works.flatMap((work) => readReports(work.out));
    if (reports.length === shown) return;
    shown = reports.length;
    const totals = emptyTotals();
    for (const report of reports) addTotals(totals, report.totals);
    console.log(`  ${totals.days} days, ${totals.animals} animals (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }, 5_000);
  try {
    await Promise.all(works.map((work, index) => startWorker(index, work)));
  } finally {
    clearInterval(progress);
    for (const hog of hogs) if (hog.pid !== undefined) process.kill(hog.pid);
  }
  const reports = works.flatMap((work) => readReports(work.out)).sort((a, b) => a.chunk - b.chunk);
  const totals = emptyTotals();
  for (const report of reports) addTotals(totals, report.totals);
  const failures = reports.filter((report) => report.failure);
  for (const report of failures) {
    const day = report.chunk * chunkDays + Number(report.failure!.path.split(':')[0]) + 1;
    console.log(`\nday ${day} of the run (chunk ${report.chunk}):\n${report.failure!.report}\n`);
  }
  const seconds = (Date.now() - started) / 1000;
  const virtualHours = totals.virtualMs / 3_600_000;
  console.log(
    `${seconds.toFixed(0)} s on ${count} worker(s); ${totals.steps} steps, ${virtualHours.toFixed(0)} simulated hours, ` +
      `${totals.requests} requests to the service, ${totals.checksAnswered} questions answered by staff` +
      `${totals.staffDuplicates > 0 ? ` (${totals.staffDuplicates} "send mine" while theirs was there unseen)` : ''}`,
  );
  const counts = Object.entries(totals.counts).sort((a, b) => b[1] - a[1]);
  if (counts.length > 0) console.log(`what befell the days: ${counts.map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
  const ran = totals.days + failures.length;
  const planned = all.reduce((sum, chunk) => sum + chunk.days, 0);
  if (ran < planned && failures.length === 0)
    console.log(`only ${ran} of ${planned} days ran: see the workers' output above`);
  console.log(summaryLine({ ...totals, days: ran }));
  process.exitCode = failures.length > 0 || ran < planned ? 1 : 0;
}

await main();
