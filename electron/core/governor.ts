/**
 * The rate-limit governor of one profile: a scheduler that decides when each request may
 * go out, so that the key is never banned.
 *
 * - Learns limit / remaining / reset (skew-corrected) from every response.
 * - Nothing remaining and the reset ahead: requests wait (not refused) until the reset.
 * - 429: waits Retry-After, else the reset, else full-jitter backoff; while any wait is in
 *   force nothing of this profile goes out, and afterwards one probe goes first.
 * - key_banned: stops the profile until the time given. Reset > 1 h away with nothing
 *   remaining: the daily quota is used up.
 * - Reads go before writes; at most `maxInFlight` requests at once, never more than what
 *   remains; writes one at a time in the order given.
 * - Retries (up to `maxRetries`) only for tasks marked retryable (GETs, POSTs with an
 *   Idempotency-Key), on transient failures and 429s.
 */
import type { GovernorSnapshot, PauseReason } from '../../src/shared/rate-limit';
import type { Clock } from './clock';
import {
  pauseAfter429,
  pauseForBan,
  pauseForExhaustion,
  retryAfterTransient,
  type Pause,
  type WindowView,
} from './pause-policy';
import type { HeaderSource } from './rate-limit-headers';
import { RateWindow } from './rate-window';
import { TaskQueue, type TaskKind } from './task-queue';
import {
  QueueCancelledError,
  type AttemptReport,
  type GovernorOptions,
  type GovernorTaskEntry as Entry,
  type ScheduleOptions,
} from './governor-types';

export * from './governor-types';

export class RateLimitGovernor {
  readonly profileId: string;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly maxInFlight: number;
  private readonly maxRetries: number;
  private readonly resetMarginMs: number;
  private readonly window = new RateWindow();
  private readonly queue = new TaskQueue<Entry>();
  private readonly listeners = new Set<(snapshot: GovernorSnapshot) => void>();
  private inFlight = 0;
  private writeInFlight = false;
  private pausedUntil: number | null = null;
  private pauseReason: PauseReason | null = null;
  /** Starts true: until a first response tells the state of the window, one request goes alone. */
  private needProbe = true;
  private probeInFlight = false;
  private answered = false;
  private consecutive429 = 0;
  private notice: string | null = null;
  private timer: { handle: unknown; at: number } | null = null;
  private lastPublished = '';

  constructor(options: GovernorOptions) {
    this.profileId = options.profileId;
    this.clock = options.clock;
    this.random = options.random ?? Math.random;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 4);
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.resetMarginMs = options.resetMarginMs ?? 100;
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
      const entry: Entry = {
        kind,
        attempt: 0,
        notBefore: 0,
        run: task as (attempt: number) => Promise<AttemptReport<unknown>>,
        retryable: options.retryable,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      const signal = options.signal;
      if (signal) {
        const onAbort = (): void => {
          if (this.queue.remove(entry)) {
            reject(new QueueCancelledError());
            this.pump();
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        entry.signal = signal;
        entry.detach = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(entry);
      this.pump();
    });
  }

  /** Learns from a response outside `schedule` (e.g. one seen by another path). */
  observe(headers: HeaderSource): void {
    this.learn(headers, this.clock.now());
    this.pump();
  }

  snapshot(): GovernorSnapshot {
    const now = this.clock.now();
    const paused = this.pausedUntil !== null && this.pausedUntil > now;
    return {
      profileId: this.profileId,
      limit: this.window.limit,
      remaining: this.window.remaining,
      resetAt: this.window.resetAt,
      pausedUntil: paused ? this.pausedUntil : null,
      pauseReason: paused ? this.pauseReason : null,
      dailyExhausted: paused && this.pauseReason === 'quota_exhausted',
      probing: this.needProbe && this.answered,
      queued: this.queue.counts(),
      inFlight: this.inFlight,
      notice: this.notice,
    };
  }

  onSnapshot(listener: (snapshot: GovernorSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the timer and rejects everything still queued. */
  dispose(): void {
    if (this.timer) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
    for (const entry of this.queue.drain()) entry.reject(new QueueCancelledError());
  }

  private pump(): void {
    const now = this.clock.now();
    this.window.expire(now);
    if (this.pausedUntil !== null && now >= this.pausedUntil) {
      this.pausedUntil = null;
      this.pauseReason = null;
      this.window.forgetRemaining();
    }
    while (this.pausedUntil === null && !this.probeInFlight) {
      const exhaustedUntil = this.window.exhaustedUntil(now);
      if (exhaustedUntil !== null) {
        this.apply(pauseForExhaustion(exhaustedUntil, now, this.resetMarginMs));
        break;
      }
      if (this.window.available(this.inFlight) <= 0) break;
      if (this.inFlight >= this.maxInFlight) break;
      const entry = this.queue.next(now, this.writeInFlight);
      if (!entry) break;
      this.dispatch(entry, this.needProbe);
    }
    this.armTimer(now);
    this.publish();
  }

  private dispatch(entry: Entry, isProbe: boolean): void {
    this.queue.remove(entry);
    this.inFlight += 1;
    if (entry.kind === 'write') this.writeInFlight = true;
    if (isProbe) this.probeInFlight = true;
    const attempt = entry.attempt;
    const sentAt = this.clock.now();
    entry.attempt += 1;
    let promise: Promise<AttemptReport<unknown>>;
    try {
      promise = entry.run(attempt);
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (report) => this.settle(entry, report, isProbe, sentAt),
      (error: unknown) => {
        this.release(entry, isProbe);
        entry.detach?.();
        entry.reject(error);
        this.pump();
      },
    );
  }

  private release(entry: Entry, isProbe: boolean): void {
    this.inFlight -= 1;
    if (entry.kind === 'write') this.writeInFlight = false;
    if (isProbe) this.probeInFlight = false;
  }

  private settle(entry: Entry, report: AttemptReport<unknown>, isProbe: boolean, sentAt: number): void {
    const now = this.clock.now();
    this.release(entry, isProbe);
    this.answered = true;
    // a probe answered without a 429 opens the queue, unless its own headers start a new wait
    if (isProbe && report.outcome !== 'rate_limited' && report.outcome !== 'banned') this.needProbe = false;
    const notices = report.headers ? this.learn(report.headers, now, sentAt) : [];
    const canRetry = entry.retryable && entry.attempt <= this.maxRetries && !entry.signal?.aborted;
    const skewMs = this.window.skewMs;
    let retryAt: number | null = null;
    if (report.outcome === 'rate_limited') {
      this.consecutive429 += 1;
      const options = { marginMs: this.resetMarginMs, random: this.random };
      this.apply(pauseAfter429(report.headers, now, this.windowView(), this.consecutive429, options));
      if (canRetry) retryAt = now;
    } else if (report.outcome === 'banned') {
      this.apply(pauseForBan(report.headers, report.bannedUntil ?? null, now, skewMs));
    } else {
      if (report.outcome === 'ok') this.consecutive429 = 0;
      if (report.outcome === 'transient' && canRetry) {
        const decision = retryAfterTransient(report.headers, entry.attempt - 1, now, skewMs, this.random);
        if (decision.pause) this.apply(decision.pause);
        notices.push(...decision.notices);
        retryAt = decision.retryAt;
      }
    }
    if (notices.length > 0) this.notice = notices.join(' ');
    else if (report.outcome === 'ok' && this.pausedUntil === null && !this.needProbe) this.notice = null;
    if (retryAt !== null) {
      entry.notBefore = retryAt;
      this.queue.pushFront(entry);
    } else {
      entry.detach?.();
      entry.resolve(report.value);
    }
    this.pump();
  }

  private windowView(): WindowView {
    return { remaining: this.window.remaining, resetAt: this.window.resetAt, skewMs: this.window.skewMs };
  }

  private learn(headers: HeaderSource, now: number, sentAt: number | null = null): string[] {
    const notices = this.window.observe(headers, now, sentAt);
    const exhaustedUntil = this.window.exhaustedUntil(now);
    if (exhaustedUntil !== null) this.apply(pauseForExhaustion(exhaustedUntil, now, this.resetMarginMs));
    return notices;
  }

  /** Starts or extends a pause (never shortens one in force); a probe must go first afterwards. */
  private apply(pause: Pause): void {
    if (this.pausedUntil === null || pause.until >= this.pausedUntil) {
      this.pausedUntil = pause.until;
      this.pauseReason = pause.reason;
    } else if (pause.reason === 'banned') {
      this.pauseReason = 'banned';
    }
    if (pause.notices.length > 0) this.notice = pause.notices.join(' ');
    this.needProbe = true;
  }

  private armTimer(now: number): void {
    const wakeAt = this.pausedUntil ?? (this.probeInFlight ? null : this.queue.earliestDelayed(now));
    if (this.timer && (wakeAt === null || this.timer.at !== wakeAt)) {
      this.clock.clearTimeout(this.timer.handle);
      this.timer = null;
    }
    if (wakeAt === null || this.timer) return;
    const handle = this.clock.setTimeout(() => {
      this.timer = null;
      this.pump();
    }, wakeAt - now);
    this.timer = { handle, at: wakeAt };
  }

  private publish(): void {
    const snapshot = this.snapshot();
    const text = JSON.stringify(snapshot);
    if (text === this.lastPublished) return;
    this.lastPublished = text;
    for (const listener of this.listeners) listener(snapshot);
  }
}
