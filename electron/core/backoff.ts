/**
 * Exponential backoff with full jitter (AWS architecture blog): the wait before retry n
 * (0-based) is uniform in [0, min(cap, base · 2^n)). `random` is injectable for tests.
 */
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_CAP_MS = 60_000;

export interface BackoffOptions {
  baseMs?: number;
  capMs?: number;
  /** Returns a number in [0, 1); defaults to Math.random. */
  random?: () => number;
}

/** The ceiling of the wait before retry `attempt` (0-based), before jitter. */
export function backoffCeiling(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? BACKOFF_BASE_MS;
  const cap = options.capMs ?? BACKOFF_CAP_MS;
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(cap, base * 2 ** exponent);
}

/** A full-jitter wait before retry `attempt` (0-based), in whole ms. */
export function fullJitterDelay(attempt: number, options: BackoffOptions = {}): number {
  const random = options.random ?? Math.random;
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(r * backoffCeiling(attempt, options));
}
