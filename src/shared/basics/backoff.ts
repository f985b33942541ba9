/**
 * The one exponential backoff of the app: the wait before try `attempt` (0-based) grows as
 * base · 2^attempt up to a cap, and a random draw spreads devices that failed together. Two
 * owners use it with their own settings (docs/architecture.md, "Who retries a request / an
 * entry?"), and the settings differ because the waits serve different ends:
 * - the core's rate-limit governor, for a request the service certainly did not act on
 *   (`REQUEST_BACKOFF`: 1 s · 2^n up to 60 s, full jitter in [0, ceiling)): short waits, as a
 *   person may be waiting on the answer;
 * - the renderer's sync engine, for an outbox entry after the core gave up on it
 *   (`ENTRY_BACKOFF`: 2 s · 2^n up to 5 min, drawn in [ceiling/2, ceiling]): nobody waits on
 *   it, and a failed entry must not come back at once (an event's laptops share one key).
 * `random` is injectable for tests; it returns a number in [0, 1).
 */
export interface Backoff {
  baseMs: number;
  capMs: number;
  /** `full`: uniform in [0, ceiling); `upper_half`: in [ceiling/2, ceiling] (0 gives the ceiling). */
  jitter: 'full' | 'upper_half';
}

export const REQUEST_BACKOFF: Backoff = { baseMs: 1000, capMs: 60_000, jitter: 'full' };
export const ENTRY_BACKOFF: Backoff = { baseMs: 2000, capMs: 5 * 60_000, jitter: 'upper_half' };

/** The ceiling of the wait before try `attempt` (0-based), before jitter. */
export function backoffCeiling(attempt: number, backoff: Pick<Backoff, 'baseMs' | 'capMs'> = REQUEST_BACKOFF): number {
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  return Math.min(backoff.capMs, backoff.baseMs * 2 ** exponent);
}

/** The wait before try `attempt` (0-based), in whole ms. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const ceiling = backoffCeiling(attempt, backoff);
  const r = Math.min(Math.max(random(), 0), 1);
  return backoff.jitter === 'full' ? Math.floor(r * ceiling) : Math.round(ceiling - (ceiling / 2) * r);
}
