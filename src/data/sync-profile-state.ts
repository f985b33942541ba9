/**
 * The sync engine's state of one profile: its progress, the pass in flight, and the timer of
 * its next try, with the rules on waits (how long the engine waits after its own failure, and
 * which waits an "online" event may cut short). The engine (sync-engine.ts) decides when a
 * pass runs; this module only keeps the state and the timer.
 */
import type { Clock } from '../shared/clock';
import { DrainProgress, type SyncProgress } from './sync-progress';

/** Wait after an unexpected failure of the engine itself (e.g. the database could not be read). */
export const INTERNAL_RETRY_MS = 10_000;
/** Waits an "online" event does not cut short: the service asked for them. */
const TOLD_TO_WAIT = new Set(['rate_limited', 'banned']);

export interface ProfileState {
  drain: DrainProgress;
  progress: SyncProgress;
  running: Promise<void> | null;
  requested: boolean;
  force: boolean;
  timer: unknown;
  /** An "online" event already cut the current wait short. */
  woken: boolean;
  /** New work arrived while a pass ran: the pass reads the outbox again before its next entry. */
  stale: boolean;
  /** Counts the progress recounts, so a recount read before a newer one is dropped. */
  counted: number;
}

/** A profile's state before its first pass: idle, no timer. */
export function newProfileState(profileId: string): ProfileState {
  const drain = new DrainProgress(profileId);
  return {
    drain,
    progress: drain.progress,
    running: null,
    requested: false,
    force: false,
    timer: null,
    woken: false,
    stale: false,
    counted: 0,
  };
}

/**
 * Whether an "online" event may cut the current wait short: only a wait (no pass running),
 * only once per wait, and never a wait the service asked for (429, ban).
 */
export function mayWakeEarly(state: ProfileState): boolean {
  if (state.running || state.timer === null || state.woken) return false;
  return !(state.progress.lastError && TOLD_TO_WAIT.has(state.progress.lastError.code));
}

export function clearTimer(clock: Clock, state: ProfileState): void {
  if (state.timer !== null) clock.clearTimeout(state.timer);
  state.timer = null;
}

/** Plans the next try at `at` (shown as `nextAttemptAt`); when it comes, `onDue` runs and a new wait may be woken again. */
export function scheduleTry(clock: Clock, state: ProfileState, at: number, onDue: () => void): void {
  clearTimer(clock, state);
  state.progress.nextAttemptAt = at;
  state.timer = clock.setTimeout(() => {
    state.timer = null;
    state.woken = false;
    onDue();
  }, at - clock.now());
}
