/**
 * The sync engine: drains each profile's outbox through the core, in creation order, one
 * entry at a time per profile (the core paces the requests). A refused entry is set aside
 * for staff and the rest keep going; an unusable key pauses that profile's queue; network
 * trouble is retried later with the same idempotency key. Time comes from an injected clock.
 */
import type { AdoptionApi } from '../shared/client';
import type { AppError } from '../shared/result';
import { AnimalCache } from './animal-cache';
import type { OutboxEntry, ProfileDb } from './db';
import { Outbox } from './outbox';
import { findCreatedAnimal, knownIdsFor } from './reconcile';
import { decideAfterSendError, RETRY_MIN_MS } from './sync-decisions';
import { DrainProgress, type SyncProgress } from './sync-progress';

export type { PausedFor } from './sync-decisions';
export type { SyncProgress } from './sync-progress';

export interface SyncClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface SyncEngineOptions {
  api: Pick<AdoptionApi, 'createPet' | 'listPets'>;
  db: (profileId: string) => ProfileDb;
  profileIds: () => string[];
  clock?: SyncClock;
}

const systemClock: SyncClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Wait after an unexpected failure of the engine itself (e.g. the database could not be read). */
const INTERNAL_RETRY_MS = 10_000;

interface ProfileState {
  drain: DrainProgress;
  progress: SyncProgress;
  running: Promise<void> | null;
  requested: boolean;
  force: boolean;
  timer: unknown;
}

export class SyncEngine {
  private readonly api: SyncEngineOptions['api'];
  private readonly clock: SyncClock;
  private readonly states = new Map<string, ProfileState>();
  private readonly listeners = new Set<(p: SyncProgress) => void>();
  private started = false;

  constructor(private readonly opts: SyncEngineOptions) {
    this.api = opts.api;
    this.clock = opts.clock ?? systemClock;
  }

  /** Starts draining every profile; entries left in `sending` by a closed app are resent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (const profileId of this.opts.profileIds()) this.request(profileId, true);
  }

  stop(): void {
    this.started = false;
    for (const state of this.states.values()) this.clearTimer(state);
  }

  /** Drains now, without waiting for a scheduled retry. Clears a `no_key`/`not_configured` pause (not a 401). */
  kick(profileId?: string): void {
    if (!this.started) return;
    for (const id of profileId ? [profileId] : this.opts.profileIds()) {
      const state = this.state(id);
      if (state.progress.pausedFor && state.progress.pausedFor !== 'unauthorized') state.progress.pausedFor = null;
      this.request(id, true);
    }
  }

  /** Lifts any pause (after staff set a new key) and drains. */
  resume(profileId: string): void {
    const state = this.state(profileId);
    state.progress.pausedFor = null;
    this.emit(profileId);
    if (this.started) this.request(profileId, true);
  }

  onProgress(listener: (p: SyncProgress) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  progress(profileId: string): SyncProgress {
    const state = this.state(profileId);
    return { ...state.progress, active: this.isActive(state) };
  }

  /** Resolves once no profile has a pass running (scheduled retries may still be waiting). */
  async whenIdle(): Promise<void> {
    for (;;) {
      const running = [...this.states.values()].flatMap((state) => (state.running ? [state.running] : []));
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  private state(profileId: string): ProfileState {
    let state = this.states.get(profileId);
    if (!state) {
      const drain = new DrainProgress(profileId);
      state = { drain, progress: drain.progress, running: null, requested: false, force: false, timer: null };
      this.states.set(profileId, state);
    }
    return state;
  }

  private isActive(state: ProfileState): boolean {
    return this.started && state.drain.draining && state.progress.pausedFor === null;
  }

  private emit(profileId: string): void {
    const snapshot = this.progress(profileId);
    for (const listener of this.listeners) listener(snapshot);
  }

  private clearTimer(state: ProfileState): void {
    if (state.timer !== null) this.clock.clearTimeout(state.timer);
    state.timer = null;
  }

  private schedule(profileId: string, at: number): void {
    const state = this.state(profileId);
    this.clearTimer(state);
    state.progress.nextAttemptAt = at;
    state.timer = this.clock.setTimeout(() => {
      state.timer = null;
      this.request(profileId, false);
    }, at - this.clock.now());
  }

  /** Asks for a pass; passes of one profile never overlap. */
  private request(profileId: string, force: boolean): void {
    const state = this.state(profileId);
    state.requested = true;
    state.force ||= force;
    if (state.running) return;
    state.running = this.run(profileId, state);
  }

  private async run(profileId: string, state: ProfileState): Promise<void> {
    await Promise.resolve(); // so `state.running` is set before this can finish
    while (state.requested && this.started) {
      const force = state.force;
      state.requested = false;
      state.force = false;
      try {
        await this.pass(profileId, state, force);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        state.progress.lastError = { code: 'internal', message: `The outbox could not be processed (${message}).` };
        this.schedule(profileId, this.clock.now() + INTERNAL_RETRY_MS);
        this.emit(profileId);
      }
    }
    state.running = null;
  }

  /** Sends due entries in creation order, each at most once, until the queue is empty or must wait. */
  private async pass(profileId: string, state: ProfileState, force: boolean): Promise<void> {
    const db = this.opts.db(profileId);
    const outbox = new Outbox(db, this.clock);
    this.clearTimer(state);
    state.progress.nextAttemptAt = null;
    await outbox.pruneSent();
    const attempted = new Set<string>();
    while (this.started && state.progress.pausedFor === null) {
      const all = await outbox.list();
      const head = state.drain.update(all, this.clock.now());
      this.emit(profileId);
      if (!head) return;
      const now = this.clock.now();
      const due = !attempted.has(head.localId) && (force || head.nextAttemptAt === null || head.nextAttemptAt <= now);
      if (!due) {
        this.schedule(profileId, Math.max(head.nextAttemptAt ?? 0, now + (force ? RETRY_MIN_MS : 0)));
        this.emit(profileId);
        return;
      }
      attempted.add(head.localId);
      await this.send(profileId, state, db, outbox, head, all);
    }
    this.emit(profileId);
  }

  private async send(
    profileId: string,
    state: ProfileState,
    db: ProfileDb,
    outbox: Outbox,
    entry: OutboxEntry,
    all: OutboxEntry[],
  ): Promise<void> {
    // An entry found in `sending` was cut off (the app closed mid-send): its outcome is unknown.
    const unknown = entry.unknownOutcome || entry.state === 'sending';
    if (unknown) {
      const known = knownIdsFor(entry, await new AnimalCache(db).all(), all);
      const found = await findCreatedAnimal(this.api, profileId, entry.pet, known);
      if (!found.ok) return this.failed(profileId, state, outbox, entry, found.error, { step: 'reconcile', unknown });
      if (found.data) {
        await outbox.markSent(entry.localId, found.data);
        state.progress.lastError = null;
        return;
      }
    }
    await outbox.markSending(entry.localId);
    const result = await this.api.createPet({ profileId, pet: entry.pet, idempotencyKey: entry.idempotencyKey });
    if (result.ok) {
      await outbox.markSent(entry.localId, result.data.animal);
      state.progress.lastError = null;
      return;
    }
    const sent = { ...entry, attempts: entry.attempts + 1 };
    await this.failed(profileId, state, outbox, sent, result.error, { step: 'send', unknown });
  }

  /**
   * Records a failed step. `during` says which: a failed reconciliation list is always
   * retried (it says nothing about the entry); a refused send needs staff. An outcome once
   * unknown stays unknown until the entry is confirmed.
   */
  private async failed(
    profileId: string,
    state: ProfileState,
    outbox: Outbox,
    entry: OutboxEntry,
    error: AppError,
    during: { step: 'reconcile' | 'send'; unknown: boolean },
  ): Promise<void> {
    state.progress.lastError = error;
    const decision = decideAfterSendError(error, Math.max(1, entry.attempts));
    const now = this.clock.now();
    if (decision.kind === 'pause') {
      await outbox.markRetry(entry.localId, error, now, during.unknown);
      state.progress.pausedFor = decision.reason;
    } else if (decision.kind === 'needs_attention' && during.step === 'send') {
      await outbox.markNeedsAttention(entry.localId, error);
    } else {
      const delayMs = decision.kind === 'retry' ? decision.delayMs : RETRY_MIN_MS;
      const unknownOutcome = during.unknown || (decision.kind === 'retry' && decision.unknownOutcome);
      await outbox.markRetry(entry.localId, error, now + delayMs, unknownOutcome);
    }
    this.emit(profileId);
  }
}
