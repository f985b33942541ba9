/** The rate-limit meter: the governor's snapshot per profile and the countdowns it implies. */
import { t } from '../language';
import type { AdoptionApi } from '../shared/app-api/client';
import type { GovernorSnapshot, PacingReason, PauseReason } from '../shared/app-api/rate-limit';
import type { ClockStore } from '../shell';

const PAUSE_REASONS = {
  remaining_zero: 'diagnostics.pauseRemainingZero',
  retry_after: 'diagnostics.pauseRetryAfter',
  backoff: 'diagnostics.pauseBackoff',
  throttled: 'diagnostics.pauseThrottled',
  banned: 'diagnostics.pauseBanned',
  quota_exhausted: 'diagnostics.pauseQuotaExhausted',
} as const satisfies Record<PauseReason, string>;

const PACING_REASONS = {
  assumed_plan: 'diagnostics.pacingAssumedPlan',
  learned: 'diagnostics.pacingLearned',
  shared_key: 'diagnostics.pacingSharedKey',
} as const satisfies Record<PacingReason, string>;

/** Why the core holds the requests, in the language shown ("the service asked us to wait"). */
export const pauseReasonText = (reason: PauseReason): string => t(PAUSE_REASONS[reason]);

/** Why the requests are spaced, in the language shown. */
export const pacingReasonText = (reason: PacingReason): string => t(PACING_REASONS[reason]);

/**
 * What the meter shows first: `paused` (nothing goes out until a time), `waiting` (the pause
 * is over and one request checks whether the service accepts requests again), `pacing` (the
 * requests are spaced), `window` (the service's own count), `unknown` (nothing measured and
 * nothing held). Whenever the core holds requests, the meter says so, whatever else is unknown.
 */
export type MeterState = 'unknown' | 'window' | 'paused' | 'waiting' | 'pacing' | 'quota';

export type MeterView = {
  state: MeterState;
  limit: number | null;
  /** null when unknown, or when the service claimed more than its limit (not believable). */
  remaining: number | null;
  /** ms until the window resets, null when unknown. */
  resetInMs: number | null;
  pauseReason: PauseReason | null;
  /** ms until requests go out again. */
  pausedForMs: number;
  /** ms between requests while they are spaced, else null. */
  paceMs: number | null;
  pacingReason: PacingReason | null;
  /** ms until the next request may go while the pace holds one, else 0. */
  heldForMs: number;
  /** Devices estimated to use the key, this one included. */
  devices: number;
  /** Requests waiting in the core. */
  queued: number;
  notice: string | null;
};

/** The meter's view of a snapshot at `now`. */
export function meterView(snapshot: GovernorSnapshot, now: number): MeterView {
  const pausedForMs = snapshot.pausedUntil === null ? 0 : Math.max(0, snapshot.pausedUntil - now);
  const queued = snapshot.queued.reads + snapshot.queued.writes;
  const held = queued > 0 && snapshot.heldUntil !== null && snapshot.heldUntil > now;
  const remaining =
    snapshot.remaining !== null && snapshot.limit !== null && snapshot.remaining > snapshot.limit
      ? null
      : snapshot.remaining;
  let state: MeterState = snapshot.limit === null ? 'unknown' : 'window';
  if (pausedForMs > 0) state = snapshot.dailyExhausted ? 'quota' : 'paused';
  else if (snapshot.probing && queued + snapshot.inFlight > 0) state = 'waiting';
  else if (held && snapshot.pacing) state = 'pacing';
  return {
    state,
    limit: snapshot.limit,
    remaining,
    resetInMs: snapshot.resetAt === null ? null : Math.max(0, snapshot.resetAt - now),
    pauseReason: snapshot.pauseReason,
    pausedForMs,
    paceMs: snapshot.pacing?.intervalMs ?? null,
    pacingReason: snapshot.pacing?.reason ?? null,
    heldForMs: held && snapshot.heldUntil !== null ? snapshot.heldUntil - now : 0,
    devices: snapshot.devices,
    queued,
    notice: snapshot.notice,
  };
}

export class GovernorStore {
  snapshots = $state<Record<string, GovernorSnapshot>>({});
  /** Snapshots pushed per profile, so that a look answering after one does not overwrite it with what it read before. */
  readonly #pushed: Record<string, number> = {};
  #unsubscribe: (() => void) | null = null;

  constructor(
    private readonly api: AdoptionApi,
    private readonly clock: ClockStore,
  ) {}

  start(): void {
    this.#unsubscribe ??= this.api.on('governor', (snapshot) => {
      this.#pushed[snapshot.profileId] = (this.#pushed[snapshot.profileId] ?? 0) + 1;
      this.snapshots[snapshot.profileId] = snapshot;
    });
  }

  /**
   * The profile's snapshot as the core holds it now, unless one was pushed while this look was
   * under way: the core pushes every change, so that one is at least as new, and the look's
   * answer may have been read before it (the meter read "not measured yet" with the window known).
   */
  async load(profileId: string): Promise<void> {
    const pushedBefore = this.#pushed[profileId] ?? 0;
    const result = await this.api.governorSnapshot({ profileId });
    if (result.ok && (this.#pushed[profileId] ?? 0) === pushedBefore) this.snapshots[profileId] = result.data;
  }

  meter(profileId: string): MeterView | null {
    const snapshot = this.snapshots[profileId];
    return snapshot ? meterView(snapshot, this.clock.now) : null;
  }

  /** Whether the core holds this profile's requests now (paused, checking, or spacing them). */
  holding(profileId: string): boolean {
    const state = this.meter(profileId)?.state;
    return state === 'paused' || state === 'quota' || state === 'waiting' || state === 'pacing';
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
