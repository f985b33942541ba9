/**
 * Per-subject rate limiting: fixed per-minute and per-day windows aligned from the subject's first
 * request, a "wait" after a 429 (until the Retry-After it was given), and a ban for subjects that
 * keep sending while told to wait. Every request that is let through counts, whatever its status.
 */
import type { Plan } from './plans';

export interface RateLimitHeaders {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window nearest to exhaustion resets. */
  reset: number;
}

export type RateDecision =
  | { kind: 'allowed'; headers: RateLimitHeaders; toldToWait: false }
  | { kind: 'rate_limited' | 'banned'; headers: RateLimitHeaders; toldToWait: boolean; retryAfterSeconds: number };

export interface RateLimiterOptions {
  minuteMs: number;
  dayMs: number;
  /** More requests than this while told to wait bans the subject. */
  banAfter: number;
  banMs: number;
}

interface Window {
  start: number;
  count: number;
}

interface SubjectState {
  minute: Window;
  day: Window;
  /** Told to wait until this time (ms); 0 when not waiting. */
  waitUntil: number;
  requestsWhileWaiting: number;
  bannedUntil: number;
}

function roll(window: Window, now: number, length: number): void {
  if (now < window.start + length) return;
  window.start += Math.floor((now - window.start) / length) * length;
  window.count = 0;
}

export class RateLimiter {
  private readonly subjects = new Map<string, SubjectState>();

  constructor(private readonly options: RateLimiterOptions) {}

  /** Decides one request of `subject` under `plan` at `now` (ms) and records it. */
  check(subject: string, plan: Plan, now: number): RateDecision {
    const state = this.stateOf(subject, now);
    roll(state.minute, now, this.options.minuteMs);
    roll(state.day, now, this.options.dayMs);
    if (state.bannedUntil > now) return this.refuse('banned', state, plan, state.bannedUntil - now, true);
    if (state.waitUntil > now) {
      state.requestsWhileWaiting += 1;
      if (state.requestsWhileWaiting > this.options.banAfter) {
        state.bannedUntil = now + this.options.banMs;
        return this.refuse('banned', state, plan, this.options.banMs, true);
      }
      return this.refuse('rate_limited', state, plan, state.waitUntil - now, true);
    }
    if (state.bannedUntil !== 0 || state.waitUntil !== 0) {
      state.bannedUntil = 0;
      state.waitUntil = 0;
      state.requestsWhileWaiting = 0;
    }
    const minuteFull = state.minute.count >= plan.perMinute;
    const dayFull = state.day.count >= plan.perDay;
    if (minuteFull || dayFull) {
      const resetAt = Math.max(
        minuteFull ? state.minute.start + this.options.minuteMs : 0,
        dayFull ? state.day.start + this.options.dayMs : 0,
      );
      const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
      state.waitUntil = now + seconds * 1000;
      return this.refuse('rate_limited', state, plan, seconds * 1000, false);
    }
    state.minute.count += 1;
    state.day.count += 1;
    return { kind: 'allowed', headers: this.headers(state, plan), toldToWait: false };
  }

  private stateOf(subject: string, now: number): SubjectState {
    let state = this.subjects.get(subject);
    if (!state) {
      state = {
        minute: { start: now, count: 0 },
        day: { start: now, count: 0 },
        waitUntil: 0,
        requestsWhileWaiting: 0,
        bannedUntil: 0,
      };
      this.subjects.set(subject, state);
    }
    return state;
  }

  private refuse(
    kind: 'rate_limited' | 'banned',
    state: SubjectState,
    plan: Plan,
    waitMs: number,
    toldToWait: boolean,
  ): RateDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    return { kind, headers: this.headers(state, plan), toldToWait, retryAfterSeconds };
  }

  /** The headers of the window nearest to exhaustion (fewest remaining; on a tie, the later reset). */
  private headers(state: SubjectState, plan: Plan): RateLimitHeaders {
    const minute = {
      limit: plan.perMinute,
      remaining: Math.max(0, plan.perMinute - state.minute.count),
      resetMs: state.minute.start + this.options.minuteMs,
    };
    const day = {
      limit: plan.perDay,
      remaining: Math.max(0, plan.perDay - state.day.count),
      resetMs: state.day.start + this.options.dayMs,
    };
    const nearest =
      day.remaining < minute.remaining || (day.remaining === minute.remaining && day.resetMs > minute.resetMs)
        ? day
        : minute;
    return { limit: nearest.limit, remaining: nearest.remaining, reset: Math.ceil(nearest.resetMs / 1000) };
  }
}
