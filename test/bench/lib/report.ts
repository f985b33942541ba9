/** What a benchmark returns, and how results are printed and saved under `test/bench/results/`. */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join, resolve } from 'node:path';

export interface BenchResult {
  name: string;
  description: string;
  /** Named measurements; the unit is in the name (e.g. `requestsPerSecond`, `latencyP99Ms`). */
  figures: Record<string, number>;
  /** How it was measured (connections, duration, target…). */
  settings: Record<string, string | number>;
  /** Optional detail saved beside the figures (e.g. per-window traces), not printed. */
  traces?: Record<string, unknown>;
}

export interface Bench {
  name: string;
  run(): Promise<BenchResult>;
}

export const RESULTS_DIR = resolve(import.meta.dirname, '../results');

function environment() {
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
  };
}

/** Writes `results/<name>.json` (the latest run of that bench). */
export async function saveResult(result: BenchResult): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${result.name}.json`);
  const record = { ...result, at: new Date().toISOString(), environment: environment() };
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

/** Prints one table row per figure. */
export function printResults(results: readonly BenchResult[]): void {
  const rows = results.flatMap((result) =>
    Object.entries(result.figures).map(([figure, value]) => [result.name, figure, formatNumber(value)] as const),
  );
  const widths = ([0, 1, 2] as const).map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length), 6));
  const line = (cells: readonly string[]) => cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(['bench', 'figure', 'value']));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(row));
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}
