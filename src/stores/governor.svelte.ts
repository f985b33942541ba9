/** The rate-limit meter: the governor's snapshot per profile and the countdowns it implies. */
import type { AdoptionApi } from '../shared/client';
import type { GovernorSnapshot, PauseReason } from '../shared/rate-limit';
import type { ClockStore } from './clock.svelte';

export const PAUSE_REASON_TEXT: Record<PauseReason, string> = {
  remaining_zero: 'no requests left in this window',
  retry_after: 'the service asked us to wait',
  backoff: 'backing off after errors',
  banned: 'the service has temporarily blocked this key',
  quota_exhausted: 'the daily quota is used up',
};

export type MeterView = {
  limit: number | null;
  remaining: number | null;
  /** ms until the window resets, null when unknown. */
  resetInMs: number | null;
  paused: boolean;
  pauseReason: PauseReason | null;
  /** ms until requests go out again. */
  pausedForMs: number;
  dailyExhausted: boolean;
  probing: boolean;
  queued: number;
  notice: string | null;
};

export class GovernorStore {
  snapshots = $state<Record<string, GovernorSnapshot>>({});
  #unsubscribe: (() => void) | null = null;

  constructor(
    private readonly api: AdoptionApi,
    private readonly clock: ClockStore,
  ) {}

  start(): void {
    this.#unsubscribe ??= this.api.on('governor', (snapshot) => {
      this.snapshots[snapshot.profileId] = snapshot;
    });
  }

  async load(profileId: string): Promise<void> {
    const result = await this.api.governorSnapshot({ profileId });
    if (result.ok) this.snapshots[profileId] = result.data;
  }

  meter(profileId: string): MeterView | null {
    const snapshot = this.snapshots[profileId];
    if (!snapshot) return null;
    const now = this.clock.now;
    const pausedForMs = snapshot.pausedUntil === null ? 0 : Math.max(0, snapshot.pausedUntil - now);
    return {
      limit: snapshot.limit,
      remaining: snapshot.remaining,
      resetInMs: snapshot.resetAt === null ? null : Math.max(0, snapshot.resetAt - now),
      paused: pausedForMs > 0 || snapshot.probing,
      pauseReason: snapshot.pauseReason,
      pausedForMs,
      dailyExhausted: snapshot.dailyExhausted,
      probing: snapshot.probing,
      queued: snapshot.queued.reads + snapshot.queued.writes,
      notice: snapshot.notice,
    };
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
