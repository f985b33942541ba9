/**
 * How long the governor waits after each kind of signal from the service. Pure functions:
 * the governor applies the returned pause. Every wait is clamped to [1 s, 24 h] for 429s
 * and bans, and unreasonable header values come back as notices.
 */
import { backoffDelay, REQUEST_BACKOFF } from '../../../src/shared/basics/backoff';
import { t } from '../../../src/shared/i18n';
import type { PauseReason } from '../../../src/shared/app-api/rate-limit';
import { type HeaderSource, readRetryAfter } from './rate-limit-headers';

export const MIN_429_WAIT_MS = 1000;
/** A reset further away than this with nothing remaining is the daily quota. */
export const DAILY_THRESHOLD_MS = 60 * 60 * 1000;
/** A ban whose end the service does not give lasts this long. */
export const DEFAULT_BAN_MS = 60 * 60 * 1000;

export interface Pause {
  until: number;
  reason: PauseReason;
  notices: string[];
}

export interface WindowView {
  remaining: number | null;
  resetAt: number | null;
  skewMs: number;
}

/** The notices staff read in the snapshot, in the core's language when the pause began. */
export const dailyNotice = (): string => t('core.dailyNotice');
export const banNotice = (): string => t('core.banNotice');

/** Nothing remains and the reset is ahead: wait for it (the daily quota if > 1 h away). */
export function pauseForExhaustion(resetAt: number, now: number, marginMs: number): Pause {
  const daily = resetAt - now > DAILY_THRESHOLD_MS;
  return {
    until: resetAt + marginMs,
    reason: daily ? 'quota_exhausted' : 'remaining_zero',
    notices: daily ? [dailyNotice()] : [],
  };
}

/**
 * A refusal (429, or a 503 taken as one): Retry-After, else the window's reset, else
 * `fallbackMs` (the learned pause of a header-less refusal, or a backoff), never under 1 s.
 */
export function pauseAfter429(
  headers: HeaderSource | null,
  now: number,
  window: WindowView,
  fallback: { waitMs: number; reason: PauseReason },
  marginMs: number,
): Pause {
  const retryAfter = readRetryAfter(headers?.get('Retry-After') ?? null, now, window.skewMs, headers);
  const notices = retryAfter.kind !== 'absent' && retryAfter.notice ? [retryAfter.notice] : [];
  const floor = now + MIN_429_WAIT_MS;
  if (retryAfter.kind === 'wait')
    return { until: Math.max(floor, now + retryAfter.waitMs), reason: 'retry_after', notices };
  if (window.resetAt !== null && window.resetAt > now) {
    const exhaustion = pauseForExhaustion(window.resetAt, now, marginMs);
    const reason = window.remaining === 0 ? exhaustion.reason : 'remaining_zero';
    return { until: Math.max(floor, exhaustion.until), reason, notices: [...notices, ...exhaustion.notices] };
  }
  return { until: Math.max(floor, now + fallback.waitMs), reason: fallback.reason, notices };
}

/** A ban: until Retry-After, else an hour. */
export function pauseForBan(headers: HeaderSource | null, now: number, skewMs: number): Pause {
  const retryAfter = readRetryAfter(headers?.get('Retry-After') ?? null, now, skewMs, headers);
  let until = now + DEFAULT_BAN_MS;
  if (retryAfter.kind === 'wait') until = now + retryAfter.waitMs;
  return { until: Math.max(until, now + MIN_429_WAIT_MS), reason: 'banned', notices: [banNotice()] };
}

/**
 * A transient failure of a retryable task (network, 500/502/504). With Retry-After the whole
 * profile waits; else only this task waits a full-jitter backoff (`retry` is 0-based).
 */
export function retryAfterTransient(
  headers: HeaderSource | null,
  retry: number,
  now: number,
  skewMs: number,
  random: () => number,
): { retryAt: number; pause: Pause | null; notices: string[] } {
  const retryAfter = readRetryAfter(headers?.get('Retry-After') ?? null, now, skewMs, headers);
  const notices = retryAfter.kind !== 'absent' && retryAfter.notice ? [retryAfter.notice] : [];
  if (retryAfter.kind === 'wait') {
    return { retryAt: now, pause: { until: now + retryAfter.waitMs, reason: 'retry_after', notices: [] }, notices };
  }
  return { retryAt: now + backoffDelay(retry, REQUEST_BACKOFF, random), pause: null, notices };
}
