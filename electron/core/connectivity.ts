/**
 * Whether each profile's service is reachable, as seen from the outcomes of calls: an
 * `offline` or `timeout` error means not reachable, any answer from the service (success
 * or an error carrying its HTTP status) means reachable. Other errors (no key, not
 * configured, cancelled) say nothing. Reports only flips, plus the first observation.
 */
import type { EventPayload } from '../../src/shared/api';
import type { Result } from '../../src/shared/result';
import type { Clock } from './clock';

const UNREACHABLE = new Set(['offline', 'timeout']);

export function reachability(result: Result<unknown>): boolean | null {
  if (result.ok) {
    const data = result.data as { result?: unknown } | null;
    // testKey answers `unreachable` as data rather than as an error.
    if (data && typeof data === 'object' && data.result === 'unreachable') return false;
    return true;
  }
  if (UNREACHABLE.has(result.error.code)) return false;
  return result.error.status !== undefined ? true : null;
}

export class ConnectivityTracker {
  readonly #online = new Map<string, boolean>();
  readonly #clock: Clock;
  readonly #emit: (payload: EventPayload<'connectivity'>) => void;

  constructor(clock: Clock, emit: (payload: EventPayload<'connectivity'>) => void) {
    this.#clock = clock;
    this.#emit = emit;
  }

  observe(profileId: string, result: Result<unknown>): void {
    const online = reachability(result);
    if (online === null || this.#online.get(profileId) === online) return;
    this.#online.set(profileId, online);
    this.#emit({ profileId, online, at: this.#clock.now() });
  }
}
