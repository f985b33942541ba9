/**
 * The shared-key drain on the fake clock over a grid of conditions (issue 34): seeds × where in
 * a server second the first request falls × one-way latency × how spread the devices' starts
 * are × device counts, each device with its own clock offset. Prints, per device count and
 * condition, the runs meeting every goal, the bans and the worst ratio to the ideal; and a
 * line per run with `--runs`. Not a test (it takes minutes); run it with low priority:
 *
 *   nice -n 19 npx tsx test/electron/core/rate-limit/shared-key-grid.ts [--devices 8,16] [--seeds 6] [--runs]
 *
 * `--spreads 100` (starts over 0–100 ms) is the closest to the bench's 16 app cores: window 0 used
 * up while some devices' next requests are on their way, refused, as in every 16-device bench run;
 * starts at once refuse none there, and starts over 3 s mostly the late starters' blind first ones.
 * `--latencies 1-4` is the bench's own round trips (1–5 ms); with `--spreads 100,300 --phases 0,300`
 * it is the fast grid of issue 34's eighth attempt (docs/performance.md section 6), where a window's
 * opener back first with a few tasks used to send them before the others came. At 16 devices it
 * bans the key in about 1 run in 6: 12 or more devices start after window 0 is used up, blind.
 *
 * `--anatomy` prints, for every run that needed a window after the fifth, what the fifth (the last one a drain of
 * five full windows should need) looked like: its opener and what it took there, and each device that sent in a
 * later window, with what it took in the fifth, what it still had after it, and what it took in the fourth
 * (issue 34, fourteenth attempt: at 16 devices, one or two such devices per run, 87 of 104 with 3–4 left).
 */
import { clockOffset, jainIndex, simulateSharedKey } from './shared-key-sim';

const CREATIONS = 300;
const WINDOW_MS = 10_000;
const IDEAL_MS = 40_000;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}
const list = (name: string, fallback: number[]): number[] => arg(name)?.split(',').map(Number) ?? fallback;

const deviceCounts = list('devices', [1, 2, 4, 8, 16]);
const seeds = Array.from({ length: Number(arg('seeds') ?? 6) }, (_, i) => i + 1);
const phases = list('phases', [0, 500, 900]);
const latencies: Array<[number, number]> = (arg('latencies') ?? '1-4,2-15')
  .split(',')
  .map((range) => range.split('-').map(Number) as [number, number]);
const spreads = list('spreads', [0, 3000]);
const printRuns = process.argv.includes('--runs');
const printAnatomy = process.argv.includes('--anatomy');

type TraceLine = Parameters<NonNullable<Parameters<typeof simulateSharedKey>[0]['trace']>>[0];

/** The fifth window of a run that needed a sixth: its opener, and the devices that sent after it (see `--anatomy`). */
function anatomy(lines: readonly TraceLine[]): string {
  const start = lines[0]?.at ?? 0;
  const taken = new Map<string, number[]>();
  let opener = '?';
  for (const line of lines) {
    if (line.status === 429) continue;
    const window = Math.floor((line.at - start) / WINDOW_MS);
    const counts = taken.get(line.device) ?? [];
    counts[window] = (counts[window] ?? 0) + 1;
    taken.set(line.device, counts);
    // the first request the fifth window accepted took its first value: the opener's
    if (window === 4 && opener === '?') opener = line.device;
  }
  const late = [...taken]
    .filter(([, counts]) => counts.slice(5).some((n) => (n ?? 0) > 0))
    .map(([device, counts]) => {
      const after = counts.slice(5).reduce((sum: number, n) => sum + (n ?? 0), 0);
      return `${device}: took ${counts[4] ?? 0}, ${after} left, took ${counts[3] ?? 0} in the fourth`;
    });
  return `fifth window's opener ${opener} took ${taken.get(opener)?.[4] ?? 0}; sent after it: ${late.join('; ')}`;
}

interface Cell {
  runs: number;
  met: number;
  /** Every goal but fairness: with starts spread over seconds, a device that started first and alone drains its share at once. */
  metButJain: number;
  bans: number;
  /** Runs in which the key was banned at least once. */
  banned: number;
  refused: number;
  requests: number;
  /** The largest share of requests refused in one run. */
  worstShare: number;
  /** Runs within the refusal goal (≤ 1 % up to 8 devices, ≤ 3 % at 16). */
  withinShare: number;
  worst: number;
}

const cells = new Map<string, Cell>();
const totals = new Map<number, Cell>();
for (const devices of deviceCounts) {
  for (const [low, high] of latencies) {
    for (const spread of spreads) {
      for (const phase of phases) {
        for (const seed of seeds) {
          const lines: TraceLine[] = [];
          const report = await simulateSharedKey({
            devices,
            creations: CREATIONS,
            windowMs: WINDOW_MS,
            seed,
            latencyMs: [low, high],
            startPhaseMs: phase,
            startSpreadMs: spread,
            clockOffsetMs: clockOffset,
            trace: printAnatomy ? (line) => lines.push(line) : undefined,
          });
          const per = Math.ceil(CREATIONS / devices);
          const rates = report.deviceDrainMs.map((ms, i) => Math.min(per, CREATIONS - i * per) / ms);
          const ratio = report.drainMs / IDEAL_MS;
          const share = report.refused / report.requests;
          const jain = jainIndex(rates);
          const maxShare = devices === 1 ? 0 : devices >= 16 ? 0.03 : 0.01;
          const metButJain = ratio <= 1.05 && share <= maxShare && report.bans === 0 && report.once;
          const met = metButJain && jain >= 0.95;
          const key = `${devices}|${low}-${high} ms|${spread === 0 ? 'at once' : `0–${spread / 1000} s`}`;
          for (const [map, k] of [
            [cells, key],
            [totals, devices],
          ] as const) {
            const cell = (map as Map<typeof k, Cell>).get(k) ?? {
              runs: 0,
              met: 0,
              metButJain: 0,
              bans: 0,
              banned: 0,
              refused: 0,
              requests: 0,
              worstShare: 0,
              withinShare: 0,
              worst: 0,
            };
            cell.runs += 1;
            cell.met += met ? 1 : 0;
            cell.metButJain += metButJain ? 1 : 0;
            cell.bans += report.bans;
            cell.banned += report.bans > 0 ? 1 : 0;
            cell.refused += report.refused;
            cell.requests += report.requests;
            cell.worstShare = Math.max(cell.worstShare, share);
            cell.withinShare += share <= maxShare ? 1 : 0;
            cell.worst = Math.max(cell.worst, ratio);
            (map as Map<typeof k, Cell>).set(k, cell);
          }
          if (printAnatomy && report.perWindow.slice(5).some((w) => (w?.accepted ?? 0) > 0))
            console.log(`${key}|phase ${phase}|seed ${seed}: ${anatomy(lines)}`);
          if (printRuns) {
            const windows = [...report.perWindow]
              .map((w) => w ?? { accepted: 0, refused: 0, whileWaiting: 0, carriedOver: 0 })
              .slice(0, 8)
              .map(
                (w) =>
                  `${w.accepted}${w.refused > 0 ? `/${w.refused}r${w.whileWaiting > 0 ? w.whileWaiting : ''}` : ''}`,
              )
              .join(' ');
            console.log(
              `${key}|phase ${phase}|seed ${seed}: ${met ? 'met' : 'NOT'} ${ratio.toFixed(3)} × ` +
                `${report.refused} refused (${(100 * share).toFixed(1)} %) bans ${report.bans} Jain ${jain.toFixed(2)}` +
                `${report.once ? '' : ' NOT ONCE'} | windows ${windows}`,
            );
          }
        }
      }
    }
  }
}
const percent = (share: number): string => `${(100 * share).toFixed(1)} %`;
const row = (devices: string, latency: string, start: string, cell: Cell): string =>
  `| ${devices} | ${latency} | ${start} | ${cell.met}/${cell.runs} | ${cell.metButJain} | ${cell.banned} | ${cell.bans} | ` +
  `${percent(cell.refused / Math.max(1, cell.requests))} | ${percent(cell.worstShare)} | ${cell.withinShare} | ${cell.worst.toFixed(3)} |`;
console.log(
  '| devices | latency (one way) | start | runs met | met but Jain | banned runs | bans | refused (all runs) | worst run refused | within refusal goal | worst × ideal |',
);
console.log(
  '| ------: | ----------------- | ----- | -------: | -----------: | ----------: | ---: | -----------------: | ----------------: | ------------------: | ------------: |',
);
for (const [key, cell] of cells) {
  const [devices, latency, start] = key.split('|');
  console.log(row(devices!, latency!, start!, cell));
}
for (const [devices, cell] of totals) console.log(row(String(devices), 'all', 'all', cell));
