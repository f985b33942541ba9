/**
 * Injected faults (`--faults 500:0.1,503:0.05,reset-before:0.05,reset-after:0.05,stall:0.02`) and
 * latency (`--latency-ms MIN..MAX`), drawn from seeded generators so a run repeats under `--seed`.
 */
import { mulberry32, randomInt } from './prng';

export const FAULT_KINDS = ['500', '503', 'reset-before', 'reset-after', 'stall'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRate {
  kind: FaultKind;
  rate: number;
}

export interface LatencyRange {
  min: number;
  max: number;
}

/** Parses `KIND:RATE,…`; the rates are probabilities per operation and must add up to at most 1. */
export function parseFaults(spec: string): FaultRate[] {
  if (spec.trim() === '') return [];
  const rates = spec.split(',').map((part): FaultRate => {
    const [kind, rateText, extra] = part.trim().split(':');
    const rate = Number(rateText);
    if (!FAULT_KINDS.includes(kind as FaultKind) || extra !== undefined) {
      throw new Error(`unknown fault "${part}" (kinds: ${FAULT_KINDS.join(', ')}; form KIND:RATE)`);
    }
    if (rateText === undefined || rateText === '' || !(rate >= 0 && rate <= 1)) {
      throw new Error(`fault rate of "${part}" must be between 0 and 1`);
    }
    return { kind: kind as FaultKind, rate };
  });
  if (rates.reduce((sum, { rate }) => sum + rate, 0) > 1 + 1e-9) throw new Error('fault rates add up to more than 1');
  return rates;
}

/** Parses `MIN..MAX` (or a single number) in milliseconds. */
export function parseLatency(spec: string): LatencyRange {
  const match = /^(\d+)(?:\.\.(\d+))?$/.exec(spec.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2] ?? match?.[1]);
  if (!match || max < min) throw new Error(`--latency-ms expects MIN..MAX in milliseconds, got "${spec}"`);
  return { min, max };
}

/** One fault decision per operation, in request order, from a generator seeded with `seed`. */
export function createFaultPicker(rates: readonly FaultRate[], seed: number): () => FaultKind | null {
  const random = mulberry32(seed);
  return () => {
    if (rates.length === 0) return null;
    let draw = random();
    for (const { kind, rate } of rates) {
      if (draw < rate) return kind;
      draw -= rate;
    }
    return null;
  };
}

/** One latency per operation, from its own generator (so adding latency does not move the faults). */
export function createLatencyPicker(range: LatencyRange | undefined, seed: number): () => number {
  const random = mulberry32(seed ^ 0x5bd1e995);
  return () => (range ? randomInt(random, range.min, range.max) : 0);
}
