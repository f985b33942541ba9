/**
 * The sync engine: drains each profile's outbox through the core, in creation order, one
 * entry at a time per profile (the core paces the requests), passing over an entry that waits for
 * an earlier send of it to settle at the service (`isSettling`), and decides when: one pass at
 * a time per profile, the next try after the backoff, sooner (once) when the service is
 * reachable again. What one try does is send-entry.ts: a refused entry is set aside for
 * staff and the rest keep going; an unusable key pauses that profile's queue; network
 * trouble is retried with the same idempotency key; a doubt is settled or left to staff.
 * Only one engine per app sends at a time (shared-sync.ts). Time comes from an injected clock:
 * every wait is measured in elapsed time (`Clock.monotonic`), so a clock set back or forward
 * neither holds the queue for the jump nor sends early; an entry's `nextAttemptAt` is stored on
 * the wall clock (other windows and the next start read it) and is read once into a deadline.
 * Each profile's state, timer and wait rules are at the end of this file.
 */
import type { AdoptionApi } from '../shared/app-api/client';
import { type Clock, systemClock } from '../shared/basics/clock';
import { createEmitter, type Disposer } from '../shared/basics/emitter';
import { errorMessage } from '../shared/basics/errors';
import { t } from '../language';
import { Outbox, type OutboxEntry, type ProfileDb } from '../storage';
import { isSettling, tryEntry } from './send-entry';
import { RETRY_MAX_MS, retryDelay } from './sync-decisions';
import { SEND_SETTLES_MS } from '../shared/app-api/api';
import { DrainProgress, type SyncProgress } from './sync-progress';

export type { PausedFor } from './sync-decisions';
export type { SyncProgress } from './sync-progress';

export interface SyncEngineOptions {
  api: Pick<AdoptionApi, 'createPet' | 'listPets'>;
  db: (profileId: string) => ProfileDb;
  /**
   * Whether a profile's database is on this computer (absent: taken as there). A profile without
   * one has nothing queued here: its pass reads nothing and, above all, creates nothing (opening a
   * missing database creates it: an empty one for every profile staff never used, on every start).
   */
  hasDb?: (profileId: string) => Promise<boolean>;
  profileIds: () => string[];
  /** A profile's service address: proof that a service keeps idempotency keys holds for one address. */
  serviceUrl?: (profileId: string) => string | null;
  clock?: Clock;
  /** The jitter of the backoff, in [0, 1). */
  random?: () => number;
}

export class SyncEngine {
  private readonly api: SyncEngineOptions['api'];
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly states = new Map<string, ProfileState>();
  private readonly listeners = createEmitter<[p: SyncProgress]>();
  private started = false;

  constructor(private readonly opts: SyncEngineOptions) {
    this.api = opts.api;
    this.clock = opts.clock ?? systemClock;
    this.random = opts.random ?? Math.random;
  }

  /** Starts sending: one pass for every profile now; entries left in `sending` by a closed app are settled first. */
  run(): void {
    if (this.started) return;
    this.started = true;
    for (const profileId of this.opts.profileIds()) this.requestPass(profileId, true);
  }

  stop(): void {
    this.started = false;
    for (const state of this.states.values()) {
      clearTimer(this.clock, state);
      unwatch(this.clock, state);
    }
  }

  /**
   * New work (an entry added, edited or answered): a pass sends what is due. Clears a
   * `no_key`/`not_configured` pause. While a pass is busy with one entry (the core may hold it
   * for a rate limit), the progress is recounted at once, so it counts the whole batch.
   */
  sendPending(profileId?: string): void {
    if (!this.started) return;
    for (const id of profileId ? [profileId] : this.opts.profileIds()) {
      const state = this.state(id);
      if (state.progress.pausedFor && state.progress.pausedFor !== 'unauthorized') state.progress.pausedFor = null;
      if (state.running) {
        state.stale = true;
        void this.recount(id, state);
      }
      this.requestPass(id, false);
    }
  }

  /**
   * The service is reachable again: the wait before the next try is cut short, and never
   * while a pass runs (that pass is the try). At most one early try per step of the backoff:
   * after it, only the try the backoff planned (or staff's action) allows another, so a
   * flapping connection cannot start pass after pass. A wait the service asked for (429,
   * ban) stays.
   */
  retryEarly(profileId: string): void {
    const state = this.states.get(profileId);
    if (!this.started || !state || !mayWakeEarly(state)) return;
    state.woken = true;
    clearTimer(this.clock, state);
    this.requestPass(profileId, true);
  }

  /** Staff saved a key: lifts any pause and sends. */
  resumeAfterKey(profileId: string): void {
    const state = this.state(profileId);
    state.progress.pausedFor = null;
    state.woken = false;
    this.emit(profileId);
    if (this.started) this.requestPass(profileId, true);
  }

  /** Forgets a removed profile: no timer, no pass, its database untouched from now on. */
  forget(profileId: string): void {
    const state = this.states.get(profileId);
    if (state) {
      clearTimer(this.clock, state);
      unwatch(this.clock, state);
    }
    this.states.delete(profileId);
  }

  onProgress(listener: (p: SyncProgress) => void): Disposer {
    return this.listeners.on(listener);
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
      state = newProfileState(profileId);
      this.states.set(profileId, state);
    }
    return state;
  }

  private isActive(state: ProfileState): boolean {
    return this.started && state.drain.draining && state.progress.pausedFor === null;
  }

  private live(profileId: string, state: ProfileState): boolean {
    return this.started && this.states.get(profileId) === state && this.opts.profileIds().includes(profileId);
  }

  private emit(profileId: string): void {
    const snapshot = this.progress(profileId);
    this.listeners.emit(snapshot);
  }

  /** Plans the next pass at `at`, on the monotonic clock. */
  private schedule(profileId: string, state: ProfileState, at: number): void {
    scheduleTry(this.clock, state, at, () => {
      if (this.live(profileId, state)) this.requestPass(profileId, false);
    });
  }

  /**
   * Follows the profile's database while the engine counts its outbox: the browser closes it under
   * the app when staff clear the site's data (every connection closed by force, then the database
   * deleted; Dexie 4 fires `close` and, as its `idbdb.onclose` closes with `disableAutoOpen: false`,
   * opens a new, empty one on the next read). Passes watch the database they read. The outbox
   * changed without the engine, so the progress is recounted from what is stored now, and a running
   * pass reads the outbox again before its next entry: it no longer says "Sending 1 of 1" while it
   * checks the lists for an entry that is gone, or while it waits to retry one.
   */
  private watch(profileId: string, state: ProfileState): ProfileDb {
    const db = this.opts.db(profileId);
    if (state.watched?.db === db) return db;
    unwatch(this.clock, state);
    const onClose = () => {
      if (!this.live(profileId, state)) return;
      state.stale = true;
      clearRecountRetry(this.clock, state);
      // Dexie fires `close` before it lets go of the connection (`_close`, then `close` re-arms
      // autoOpen): a read now would go to the closed one. A microtask later it opens a new one,
      // which Chromium may still refuse while it deletes the old (AbortError: "The connection was
      // closed", seen in storage-loss.spec.ts): the recount is tried again a little later.
      void Promise.resolve().then(() => this.recount(profileId, state, RECOUNT_RETRIES));
    };
    db.on('close', onClose);
    state.watched = { db, stop: () => db.on.close.unsubscribe(onClose) };
    return db;
  }

  /** Asks for a pass; passes of one profile never overlap, and at most one more waits behind a running one. */
  private requestPass(profileId: string, force: boolean): void {
    const state = this.state(profileId);
    state.requested = true;
    state.force ||= force;
    if (state.running) return;
    state.running = this.passes(profileId, state);
  }

  /** Runs the requested passes of one profile one after the other. */
  private async passes(profileId: string, state: ProfileState): Promise<void> {
    await Promise.resolve(); // so `state.running` is set before this can finish
    while (state.requested && this.live(profileId, state)) {
      const force = state.force;
      state.requested = false;
      state.force = false;
      try {
        await this.pass(profileId, state, force);
      } catch (error) {
        if (!this.live(profileId, state)) break;
        const message = errorMessage(error);
        state.progress.lastError = { code: 'internal', message: t('sync.outboxFailed', { reason: message }) };
        this.schedule(profileId, state, this.clock.monotonic() + INTERNAL_RETRY_MS);
        this.emit(profileId);
      }
    }
    state.running = null;
  }

  /** Counts the outbox into the progress and tells the listeners. */
  private count(profileId: string, state: ProfileState, all: OutboxEntry[]): OutboxEntry | undefined {
    state.counted += 1;
    forgetDeadlines(state, all);
    const head = state.drain.update(all, this.clock.now());
    this.emit(profileId);
    return head;
  }

  /**
   * Recounts outside a pass; dropped when the pass counted meanwhile (its count is newer). A read
   * that fails is tried again `retries` times, each after twice the wait before (one such wait at a
   * time per profile: in Chromium the refused open closes the database again); then (or for a
   * database closed for good: the profile is going) the count is left to the next pass, which
   * reports the failure.
   */
  private async recount(profileId: string, state: ProfileState, retries = 0, waitMs = RECOUNT_WAIT_MS): Promise<void> {
    const counted = state.counted;
    let all: OutboxEntry[];
    try {
      ({ entries: all } = await new Outbox(this.watch(profileId, state), this.clock).readAll());
    } catch {
      if (retries > 0 && state.recountRetry === null && this.live(profileId, state) && counted === state.counted)
        state.recountRetry = this.clock.setTimeout(() => {
          state.recountRetry = null;
          if (this.live(profileId, state)) void this.recount(profileId, state, retries - 1, waitMs * 2);
        }, waitMs);
      return;
    }
    if (counted !== state.counted || !this.live(profileId, state)) return;
    this.count(profileId, state, all);
  }

  /**
   * Reads the outbox once (moving rows that fail the schema aside), then tries due entries in
   * creation order, each at most once, until the queue is empty or must wait. Each try returns
   * the entry as it wrote it, so the pass keeps its copy current without reading again; it reads
   * again only when new work arrived meanwhile (`sendPending`) or the browser closed the database
   * under it (`watch`).
   */
  private async pass(profileId: string, state: ProfileState, force: boolean): Promise<void> {
    clearTimer(this.clock, state);
    state.progress.nextAttemptAt = null;
    if (this.opts.hasDb && !(await this.opts.hasDb(profileId))) {
      // Nothing queued here (its database never made, or gone with the site's data): count it empty.
      if (this.live(profileId, state)) this.count(profileId, state, []);
      return;
    }
    const db = this.watch(profileId, state);
    const outbox = new Outbox(db, this.clock);
    const serviceUrl = this.opts.serviceUrl?.(profileId) ?? null;
    const context = {
      api: this.api,
      profileId,
      db,
      outbox,
      serviceUrl,
      now: () => this.clock.now(),
      sinceWritten: (entry: OutboxEntry) => this.clock.monotonic() - writtenAt(this.clock, state, entry),
      random: this.random,
    };
    await outbox.pruneSent();
    state.stale = false;
    let all = await outbox.readQueue();
    const attempted = new Set<string>();
    while (this.live(profileId, state) && state.progress.pausedFor === null) {
      if (state.stale) {
        state.stale = false;
        all = await outbox.readQueue();
      }
      if (!this.count(profileId, state, all)) return;
      const now = this.clock.monotonic();
      // An entry waiting for an earlier send of it to settle at the service is passed over (never
      // tried early, not even by a forced pass); the entries after it go on. Its wait, as every
      // wait here, is on the monotonic clock (deadlineOf).
      const { head, settles } = nextToTry(all, now, (entry) =>
        isSettling(entry) ? deadlineOf(this.clock, state, entry) : null,
      );
      if (!head) {
        if (settles !== null) this.schedule(profileId, state, settles);
        this.emit(profileId);
        return;
      }
      const dueAt = deadlineOf(this.clock, state, head);
      const due = force || dueAt === null || dueAt <= now;
      if (attempted.has(head.localId) || !due) {
        const at = dueAt ?? now + retryDelay(1, this.random);
        this.schedule(profileId, state, settles === null ? at : Math.min(at, settles));
        this.emit(profileId);
        return;
      }
      attempted.add(head.localId);
      const outcome = await tryEntry(context, head, all);
      // the wait this try planned, and when it wrote, are read at once, before the wall clock can move
      if (outcome.entry) {
        deadlineOf(this.clock, state, outcome.entry);
        writtenAt(this.clock, state, outcome.entry);
      }
      all = all.flatMap((entry) => (entry.localId !== head.localId ? [entry] : outcome.entry ? [outcome.entry] : []));
      state.progress.lastError = outcome.lastError;
      if (outcome.pausedFor) state.progress.pausedFor = outcome.pausedFor;
      if (outcome.lastError) this.emit(profileId);
    }
    this.emit(profileId);
  }
}

/**
 * The first entry to send, in creation order, passing over those that wait for an earlier send
 * to settle at the service (`isSettling`), and when the first of those is due (monotonic).
 */
function nextToTry(
  all: readonly OutboxEntry[],
  now: number,
  settlesAt: (entry: OutboxEntry) => number | null,
): { head: OutboxEntry | undefined; settles: number | null } {
  let settles: number | null = null;
  for (const entry of all) {
    if (entry.state !== 'queued' && entry.state !== 'sending') continue;
    const until = settlesAt(entry);
    if (until === null || until <= now) return { head: entry, settles };
    settles = settles === null ? until : Math.min(settles, until);
  }
  return { head: undefined, settles };
}

// The state of one profile: its progress, the pass in flight, the timer of its next try, and
// the rules on waits (how long the engine waits after its own failure, which waits an
// "online" event may cut short). The engine above decides when a pass runs.

/** How often a recount after the browser closed the database is tried again, the first after this wait (ms). */
const RECOUNT_RETRIES = 5;
const RECOUNT_WAIT_MS = 200;
/** Wait after an unexpected failure of the engine itself (e.g. the database could not be read). */
const INTERNAL_RETRY_MS = 10_000;
/**
 * The longest wait an entry's stored `nextAttemptAt` may stand for (the backoff's cap, or a send
 * left to settle): one further away was stored before the clock was set back, and waits no more.
 */
export const MAX_STORED_WAIT_MS = Math.max(RETRY_MAX_MS, SEND_SETTLES_MS);
/** Waits an "online" event does not cut short: the service asked for them. */
const TOLD_TO_WAIT = new Set(['rate_limited', 'banned']);

interface ProfileState {
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
  /**
   * Each waiting entry's deadline on the monotonic clock, with the stored `nextAttemptAt` it was
   * read from: read once, so a clock set back or forward afterwards moves no deadline.
   */
  deadlines: Map<string, { stored: number; at: number }>;
  /** Likewise when each entry was last written (its stored `updatedAt`), on the monotonic clock. */
  written: Map<string, { stored: number; at: number }>;
  /** The database whose `close` the engine listens to (`SyncEngine.watch`), and how to stop listening. */
  watched: { db: ProfileDb; stop: () => void } | null;
  /** The timer of the next try of a recount the browser refused, if one waits. */
  recountRetry: unknown;
}

/** A profile's state before its first pass: idle, no timer. */
function newProfileState(profileId: string): ProfileState {
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
    deadlines: new Map(),
    written: new Map(),
    watched: null,
    recountRetry: null,
  };
}

/**
 * When `entry` is due, on the monotonic clock (null: now). Its stored `nextAttemptAt` (wall
 * clock, written by this engine, another window or before a restart) is read once: the time left
 * then, at most MAX_STORED_WAIT_MS, from that moment on.
 */
function deadlineOf(clock: Clock, state: ProfileState, entry: OutboxEntry): number | null {
  const stored = entry.nextAttemptAt;
  if (stored === null) return null;
  const known = state.deadlines.get(entry.localId);
  if (known && known.stored === stored) return known.at;
  const left = Math.min(Math.max(0, stored - clock.now()), MAX_STORED_WAIT_MS);
  const at = clock.monotonic() + left;
  state.deadlines.set(entry.localId, { stored, at });
  return at;
}

/**
 * When `entry` was last written, on the monotonic clock: its stored `updatedAt` read once (the
 * time since then on the wall clock, none when the clock was set back since).
 */
function writtenAt(clock: Clock, state: ProfileState, entry: OutboxEntry): number {
  const known = state.written.get(entry.localId);
  if (known && known.stored === entry.updatedAt) return known.at;
  const at = clock.monotonic() - Math.max(0, clock.now() - entry.updatedAt);
  state.written.set(entry.localId, { stored: entry.updatedAt, at });
  return at;
}

/** Forgets the deadlines and write times of entries no longer in the outbox. */
function forgetDeadlines(state: ProfileState, all: OutboxEntry[]): void {
  if (state.deadlines.size === 0 && state.written.size === 0) return;
  const present = new Set(all.map((entry) => entry.localId));
  for (const map of [state.deadlines, state.written])
    for (const localId of map.keys()) if (!present.has(localId)) map.delete(localId);
}

/**
 * Whether an "online" event may cut the current wait short: only a wait (no pass running),
 * only once per wait, and never a wait the service asked for (429, ban).
 */
function mayWakeEarly(state: ProfileState): boolean {
  if (state.running || state.timer === null || state.woken) return false;
  return !(state.progress.lastError && TOLD_TO_WAIT.has(state.progress.lastError.code));
}

function unwatch(clock: Clock, state: ProfileState): void {
  state.watched?.stop();
  state.watched = null;
  clearRecountRetry(clock, state);
}

function clearRecountRetry(clock: Clock, state: ProfileState): void {
  if (state.recountRetry !== null) clock.clearTimeout(state.recountRetry);
  state.recountRetry = null;
}

function clearTimer(clock: Clock, state: ProfileState): void {
  if (state.timer !== null) clock.clearTimeout(state.timer);
  state.timer = null;
}

/**
 * Plans the next try at `at` (monotonic; shown to staff as `nextAttemptAt` on the wall clock as
 * it reads now); when it comes, `onDue` runs and a new wait may be woken again.
 */
function scheduleTry(clock: Clock, state: ProfileState, at: number, onDue: () => void): void {
  clearTimer(clock, state);
  const left = at - clock.monotonic();
  state.progress.nextAttemptAt = clock.now() + Math.max(0, left);
  state.timer = clock.setTimeout(() => {
    state.timer = null;
    state.woken = false;
    onDue();
  }, left);
}
