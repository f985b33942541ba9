/** What the command line (cli.ts) gives each worker (days.run.ts), and what a worker reports per chunk. */
import type { FindingKind } from '../day/checks';
import type { Totals } from '../totals';

/** Days are run in chunks, each with its own fast-check seed made from the run's seed. */
export interface Chunk {
  index: number;
  seed: number;
  days: number;
  /** Replays one failing day (with `seed`, the chunk's seed printed with it). */
  path?: string;
  /** With `path`: the steps that ran (fast-check's replayPath). */
  steps?: string;
}

export interface Work {
  chunks: Chunk[];
  /** Where the worker appends its ChunkReport lines. */
  out: string;
}

export interface ChunkReport {
  chunk: number;
  seed: number;
  totals: Totals;
  failure: { seed: number; path: string; report: string; kinds: Partial<Record<FindingKind, number>> } | null;
  ms: number;
}

/** The seed of chunk `index` of a run seeded `seed` (the same whatever the number of workers). */
export function chunkSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) & 0x7fffffff;
}
