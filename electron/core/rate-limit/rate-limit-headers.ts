/**
 * Reading the service's rate-limit headers: `X-RateLimit-Limit/-Remaining/-Reset`,
 * `Retry-After` (delta-seconds or HTTP-date) and the clock skew given by `Date`.
 * Unreasonable values are clamped or dropped, and each such case yields a plain-language
 * notice for the governor's snapshot.
 */
import { t } from '../../../src/shared/i18n';

export interface HeaderSource {
  get(name: string): string | null;
  /**
   * An unreadable value as a notice quotes it. By default cut to QUOTED_LENGTH characters; the
   * core's client hides API keys in it first (service-call.ts), so that no cut leaves a piece of one.
   */
  quote?(value: string): string;
}

/** How much of an unreadable header value a notice quotes. */
export const QUOTED_LENGTH = 40;

function quoted(value: string, headers: HeaderSource | null | undefined): string {
  return headers?.quote ? headers.quote(value) : value.slice(0, QUOTED_LENGTH);
}

/** No wait is ever longer than a day. */
export const MAX_WAIT_MS = 24 * 60 * 60 * 1000;
/** A `Reset` below this is read as seconds from now rather than a unix timestamp. */
export const UNIX_SECONDS_FLOOR = 1_000_000_000;
const INTEGER = /^\s*-?\d+\s*$/;
const DECIMAL = /^\s*-?\d+(\.\d+)?\s*$/;
const IMF_OR_RFC850 = /^\s*[A-Za-z]{3,9}, .+ GMT\s*$/;
const ASCTIME = /^\s*[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}\s*$/;

export interface RateLimitReading {
  limit: number | null;
  remaining: number | null;
  /** When the window resets, on the local clock of `now` (skew-corrected); null when absent. */
  resetAt: number | null;
  notices: string[];
}

export type RetryAfterReading =
  { kind: 'absent' } | { kind: 'wait'; waitMs: number; notice: string | null } | { kind: 'unreadable'; notice: string };

/** Parses an HTTP-date (IMF-fixdate, RFC 850 or asctime); null when it is not one. */
export function parseHttpDate(value: string): number | null {
  if (IMF_OR_RFC850.test(value)) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  if (ASCTIME.test(value)) {
    const ms = Date.parse(`${value.trim()} GMT`);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

function readCount(headers: HeaderSource, name: string, notices: string[]): number | null {
  const raw = headers.get(name);
  if (raw === null) return null;
  if (!INTEGER.test(raw) || Number(raw) < 0 || !Number.isSafeInteger(Number(raw))) {
    notices.push(t('core.unreadableHeader', { name, raw: quoted(raw, headers) }));
    return null;
  }
  return Number(raw);
}

/** Reads `X-RateLimit-*`, converting the reset time to the local clock (that of `now`) with `skewMs`. */
export function readRateLimit(headers: HeaderSource, now: number, skewMs: number): RateLimitReading {
  const notices: string[] = [];
  const limit = readCount(headers, 'X-RateLimit-Limit', notices);
  const remaining = readCount(headers, 'X-RateLimit-Remaining', notices);
  let resetAt: number | null = null;
  const raw = headers.get('X-RateLimit-Reset');
  if (raw !== null) {
    const seconds = DECIMAL.test(raw) ? Number(raw) : NaN;
    if (!Number.isFinite(seconds) || seconds < 0) {
      notices.push(t('core.unreadableHeader', { name: 'X-RateLimit-Reset', raw: quoted(raw, headers) }));
    } else {
      resetAt = seconds < UNIX_SECONDS_FLOOR ? now + seconds * 1000 : seconds * 1000 - skewMs;
      if (resetAt - now > MAX_WAIT_MS) {
        notices.push(t('core.resetTooFar'));
        resetAt = now + MAX_WAIT_MS;
      }
    }
  }
  return { limit, remaining, resetAt, notices };
}

/** Reads `Retry-After` as a wait in ms from `now`, clamped to [0, 24 h]; `headers` quotes it in a notice. */
export function readRetryAfter(
  value: string | null,
  now: number,
  skewMs: number,
  headers?: HeaderSource | null,
): RetryAfterReading {
  if (value === null || value.trim() === '') return { kind: 'absent' };
  let waitMs: number;
  if (INTEGER.test(value)) {
    const seconds = Number(value);
    if (seconds < 0) {
      return { kind: 'wait', waitMs: 0, notice: t('core.negativeRetryAfter', { value: value.trim() }) };
    }
    waitMs = seconds * 1000;
  } else {
    const dateMs = parseHttpDate(value);
    if (dateMs === null) {
      return { kind: 'unreadable', notice: t('core.unreadableRetryAfter', { value: quoted(value, headers) }) };
    }
    waitMs = Math.max(0, dateMs - skewMs - now);
  }
  if (waitMs > MAX_WAIT_MS) {
    return {
      kind: 'wait',
      waitMs: MAX_WAIT_MS,
      notice: t('core.retryAfterTooFar'),
    };
  }
  return { kind: 'wait', waitMs, notice: null };
}
