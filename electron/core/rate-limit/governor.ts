/**
 * The rate-limit governor of one profile: a scheduler that decides when each request may
 * go out, so that the key is never banned. It is the one owner of pacing, waiting, backoff
 * and retries of requests (docs/architecture.md, "Rate limits").
 *
 * - Learns limit / remaining / reset (skew-corrected) from every response.
 * - Nothing remaining and the reset ahead: requests wait (not refused) until the reset.
 * - 429 (and 503, a gateway's way of saying the same): waits Retry-After, else the reset, else
 *   a pause it learns (AIMD, adaptive-rate.ts); while any wait is in force nothing of this
 *   profile goes out, and afterwards one probe goes first.
 * - No rate headers (a gateway hides them): paces at a rate it learns, starting at the
 *   smallest plan's (adaptive-rate.ts).
 * - Other devices on the same key (seen from Remaining): keeps to its share (device-share.ts).
 * - key_banned: stops the profile until the time given. Reset > 1 h away with nothing
 *   remaining: the daily quota is used up.
 * - Reads go before writes, but a write goes after every WRITE_SHARE reads; at most
 *   `maxInFlight` requests at once, never more than what remains; writes one at a time in order.
 * - Retries (up to `maxRetries`) only for tasks marked retryable (GETs, POSTs with an
 *   Idempotency-Key), on transient failures and refusals.
 *
 * Every time it keeps (pauses, the pace, the window's reset, a retry's wait) is on the clock's
 * elapsed time (`Clock.monotonic`): the computer's clock set back or forward moves none of them.
 * The service's dates are read once, on receipt (rate-window.ts); the snapshot shows the times
 * on the wall clock as it reads when the snapshot is taken.
 */
import type { Clock } from '../../../src/shared/basics/clock';
import type { GovernorSnapshot, PauseReason } from '../../../src/shared/app-api/rate-limit';
import { AdaptiveRate } from './adaptive-rate';
import {
  type AttemptReport,
  createEntry,
  type GovernorOptions,
  type GovernorTaskEntry as Entry,
  QueueCancelledError,
  type ScheduleOptions,
} from './governor-types';
import { PacingGate } from './pacing-gate';
import { type Pause, pauseForBan, pauseForExhaustion, retryAfterTransient } from './pause-policy';
import type { HeaderSource } from './rate-limit-headers';
import { RateWindow } from './rate-window';
import { SnapshotListeners } from './snapshot-listeners';
import { type TaskKind, TaskQueue } from './task-queue';
import { WakeTimer } from './wake-timer';

export { QueueCancelledError } from './governor-types';
export type { AttemptOutcome, AttemptReport, GovernorOptions, ScheduleOptions, TaskKind } from './governor-types';

export class RateLimitGovernor {
  readonly profileId: string;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxInFlight: number;
  private readonly maxRetries: number;
  private readonly resetMarginMs: number;
  private readonly window = new RateWindow();
  private readonly queue = new TaskQueue<Entry>();
  private readonly gate: PacingGate;
  private readonly listeners = new SnapshotListeners();
  private readonly flights = new InFlight();
  private readonly pause = new PauseState();
  private heldUntil: number | null = null;
  private consecutive429 = 0;
  private readonly timer: WakeTimer;

  constructor(options: GovernorOptions) {
    this.profileId = options.profileId;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 4);
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.resetMarginMs = options.resetMarginMs ?? 100;
    this.gate = new PacingGate(this.window, new AdaptiveRate(this.random, options.assumedRate), this.random);
    this.timer = new WakeTimer(this.clock, () => this.pump());
  }

  /** Queues a task; resolves with the value of its last attempt. */
  schedule<T>(
    kind: TaskKind,
    task: (attempt: number) => Promise<AttemptReport<T>>,
    options: ScheduleOptions,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new QueueCancelledError());
        return;
      }
      const run = task as (attempt: number) => Promise<AttemptReport<unknown>>;
      const settle = { resolve: resolve as (value: unknown) => void, reject };
      const entry = createEntry(kind, run, options, settle, (queued) => {
        const removed = this.queue.remove(queued);
        if (removed) this.pump();
        return removed;
      });
      this.queue.push(entry);
      this.pump();
    });
  }

  /** What staff are shown: its times on the wall clock (local epoch ms) as it reads now. */
  snapshot(): GovernorSnapshot {
    const now = this.clock.monotonic();
    const offset = this.clock.now() - now;
    const wall = (at: number | null) => (at === null ? null : at + offset);
    const held = this.heldUntil !== null && this.heldUntil > now && this.queue.size > 0;
    const pause = this.pause.view(now);
    return {
      profileId: this.profileId,
      limit: this.window.limit,
      remaining: this.window.remaining,
      resetAt: wall(this.window.resetAt),
      ...pause,
      pausedUntil: wall(pause.pausedUntil),
      queued: this.queue.counts(),
      inFlight: this.flights.count,
      pacing: this.gate.pacing(now, this.flights.count),
      heldUntil: held ? wall(this.heldUntil) : null,
      devices: this.gate.devices(now),
    };
  }

  onSnapshot(listener: (snapshot: GovernorSnapshot) => void): () => void {
    return this.listeners.add(listener);
  }

  /** Stops the timer and rejects everything still queued. */
  dispose(): void {
    this.timer.clear();
    for (const entry of this.queue.drain()) entry.reject(new QueueCancelledError());
  }

  private pump(): void {
    const now = this.clock.monotonic();
    this.window.expire(now);
    if (this.pause.expire(now)) this.window.forgetRemaining();
    this.heldUntil = null;
    while (this.pause.until === null && !this.flights.probe) {
      const exhaustedUntil = this.window.exhaustedUntil(now);
      if (exhaustedUntil !== null) {
        this.pause.apply(this.exhaustion(exhaustedUntil, now));
        break;
      }
      if (this.window.available(this.flights.count) <= 0) break;
      if (this.flights.count >= this.maxInFlight) break;
      const entry = this.queue.next(now, this.flights.write);
      if (!entry) break;
      const readyAt = this.pause.needProbe ? now : this.gate.readyAt(now, this.flights.count, this.queue.size);
      if (readyAt > now) {
        this.heldUntil = readyAt;
        break;
      }
      this.dispatch(entry, this.pause.needProbe, now);
    }
    this.armTimer(now);
    this.publish();
  }

  private dispatch(entry: Entry, isProbe: boolean, now: number): void {
    this.queue.take(entry);
    const seq = this.flights.start(entry.kind, isProbe);
    const attempt = entry.attempt;
    this.gate.onSent(now);
    entry.attempt += 1;
    let promise: Promise<AttemptReport<unknown>>;
    try {
      promise = entry.run(attempt);
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (report) => this.settle(entry, report, isProbe, now, seq),
      (error: unknown) => {
        this.flights.end(entry.kind, isProbe);
        entry.detach?.();
        entry.reject(error);
        this.pump();
      },
    );
  }

  private settle(entry: Entry, report: AttemptReport<unknown>, isProbe: boolean, sentAt: number, seq: number): void {
    const now = this.clock.monotonic();
    // the service's dates in this answer are read against the wall clock as it reads now
    this.window.localOffsetMs = this.clock.now() - now;
    this.flights.end(entry.kind, isProbe);
    this.pause.answered = true;
    const refused = report.outcome === 'rate_limited' || report.outcome === 'banned';
    // a probe answered without a refusal opens the queue, unless its own headers start a new wait
    if (isProbe && !refused) this.pause.needProbe = false;
    const notices = report.headers ? this.learn(report.headers, now, sentAt, seq, refused) : [];
    const canRetry = entry.retryable && entry.attempt <= this.maxRetries && !entry.signal?.aborted;
    const skewMs = this.window.skewMs;
    let retryAt: number | null = null;
    if (report.outcome === 'rate_limited') {
      this.consecutive429 += 1;
      this.pause.apply(this.gate.pauseAfterRefusal(report.headers, now, this.consecutive429, this.resetMarginMs));
      if (canRetry) retryAt = now;
    } else if (report.outcome === 'banned') {
      this.pause.apply(pauseForBan(report.headers, now, skewMs));
    } else {
      if (report.outcome === 'ok' || report.outcome === 'final') {
        this.consecutive429 = 0;
        this.gate.onAccepted(this.queue.size > 0);
      }
      if (report.outcome === 'transient' && canRetry) {
        const decision = retryAfterTransient(report.headers, entry.attempt - 1, now, skewMs, this.random);
        if (decision.pause) this.pause.apply(decision.pause);
        notices.push(...decision.notices);
        retryAt = decision.retryAt;
      }
    }
    if (notices.length > 0) this.pause.notice = notices.join(' ');
    else if (report.outcome === 'ok' && this.pause.until === null && !this.pause.needProbe) this.pause.notice = null;
    if (retryAt !== null) {
      entry.notBefore = retryAt;
      this.queue.pushFront(entry);
    } else {
      entry.detach?.();
      entry.resolve(report.value);
    }
    this.pump();
  }

  private learn(headers: HeaderSource, now: number, sentAt: number | null = null, seq = 0, refused = false) {
    // the gate reads the answer through the skew its Date teaches; the window asks whether the
    // key is shared once the gate has counted this answer: a device whose second answer is the
    // first to show others holds the first reset as the others do (issue 34, rate-window.ts)
    this.window.learnDate(headers, now, sentAt);
    this.gate.observe(headers, now, sentAt ?? now, seq, refused);
    const notices = this.window.observeLimits(headers, now, sentAt, refused, this.gate.keyShared(now));
    const exhaustedUntil = this.window.exhaustedUntil(now);
    if (exhaustedUntil !== null) this.pause.apply(this.exhaustion(exhaustedUntil, now));
    return notices;
  }

  /** Waiting for the reset; with other devices on the key, until no refusal of the window can still hold the key (device-share.ts). */
  private exhaustion(resetAt: number, now: number): Pause {
    const backlog = this.queue.size + this.flights.count;
    return pauseForExhaustion(this.gate.comeBackAt(resetAt, now, this.resetMarginMs, backlog), now, 0);
  }

  private armTimer(now: number): void {
    this.timer.set(this.pause.until ?? (this.flights.probe ? null : this.earliestWake(now)), now);
  }

  private earliestWake(now: number): number | null {
    const delayed = this.queue.earliestDelayed(now);
    if (this.heldUntil === null) return delayed;
    return delayed === null ? this.heldUntil : Math.min(delayed, this.heldUntil);
  }

  private publish(): void {
    this.listeners.publish(this.snapshot());
  }
}

/**
 * The pause of one profile and the probe after it: a pause (429, ban, the window used up) only
 * ever grows until it ends; after it, and before the first answer, one request goes alone (the
 * probe); and the notice staff see.
 */
class PauseState {
  until: number | null = null;
  reason: PauseReason | null = null;
  /** Starts true: until a first response tells the state of the window, one request goes alone. */
  needProbe = true;
  answered = false;
  notice: string | null = null;

  /** Ends a pause whose time has come; true when one just ended. */
  expire(now: number): boolean {
    if (this.until === null || now < this.until) return false;
    this.until = null;
    this.reason = null;
    return true;
  }

  /** Starts or extends a pause (never shortens one in force); a probe must go first afterwards. */
  apply(pause: Pause): void {
    if (this.until === null || pause.until >= this.until) {
      this.until = pause.until;
      this.reason = pause.reason;
    } else if (pause.reason === 'banned') {
      this.reason = 'banned';
    }
    if (pause.notices.length > 0) this.notice = pause.notices.join(' ');
    this.needProbe = true;
  }

  /** What the snapshot says of the pause, the probe and the notice. */
  view(now: number): Pick<GovernorSnapshot, 'pausedUntil' | 'pauseReason' | 'dailyExhausted' | 'probing' | 'notice'> {
    const paused = this.until !== null && this.until > now;
    return {
      pausedUntil: paused ? this.until : null,
      pauseReason: paused ? this.reason : null,
      dailyExhausted: paused && this.reason === 'quota_exhausted',
      probing: this.needProbe && this.answered,
      notice: this.notice,
    };
  }
}

/** The requests of the profile under way: how many, whether a write or the probe is among them, and the send order. */
class InFlight {
  count = 0;
  write = false;
  probe = false;
  private sent = 0;

  /** Counts a request going out; returns its place in the send order (1, 2, …). */
  start(kind: TaskKind, isProbe: boolean): number {
    this.count += 1;
    if (kind === 'write') this.write = true;
    if (isProbe) this.probe = true;
    return ++this.sent;
  }

  /** A request was answered or failed. */
  end(kind: TaskKind, isProbe: boolean): void {
    this.count -= 1;
    if (kind === 'write') this.write = false;
    if (isProbe) this.probe = false;
  }
}
