/**
 * Whether each profile's service is reachable, as seen from the outcomes of calls: an
 * `offline` or `timeout` error means not reachable, any answer from the service (success
 * or an error carrying its HTTP status) means reachable. Other errors (no key, not
 * configured, cancelled) say nothing: no request was made.
 *
 * The core is the one place that tracks this (every call of every window and of the sync
 * engine passes here); renderers only read the `connectivity` events. Every observation is
 * reported, not only flips: a window that was just opened or reloaded knows nothing yet
 * ("not checked yet") and learns the state from the next call that anyone makes, even when
 * that call only confirms what the core already knew. Requests are paced by the governor, so
 * this is at most one small event per request.
 */
import type { EventPayload } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { type Result, UNREACHABLE_CODES } from '../../../src/shared/app-api/result';

export function reachability(result: Result<unknown>): boolean | null {
  if (result.ok) {
    const data = result.data as { result?: unknown } | null;
    // testKey answers `unreachable` as data rather than as an error.
    if (data && typeof data === 'object' && data.result === 'unreachable') return false;
    return true;
  }
  if (UNREACHABLE_CODES.has(result.error.code)) return false;
  return result.error.status !== undefined ? true : null;
}

export class ConnectivityTracker {
  readonly #clock: Clock;
  readonly #emit: (payload: EventPayload<'connectivity'>) => void;

  constructor(clock: Clock, emit: (payload: EventPayload<'connectivity'>) => void) {
    this.#clock = clock;
    this.#emit = emit;
  }

  observe(profileId: string, result: Result<unknown>): void {
    const online = reachability(result);
    if (online === null) return;
    this.#emit({ profileId, online, at: this.#clock.now() });
  }
}
