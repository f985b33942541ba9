/**
 * What the sync engine does with a failed send, by the core's error code, and how long it
 * waits before the next attempt. Pure functions, so the rules are tested on their own.
 */
import { backoffDelay, ENTRY_BACKOFF } from '../shared/basics/backoff';
import { type AppError, UNREACHABLE_CODES } from '../shared/app-api/result';

export type PausedFor = 'unauthorized' | 'no_key' | 'not_configured';

export type SendDecision =
  | { kind: 'needs_attention' }
  | { kind: 'pause'; reason: PausedFor }
  | { kind: 'retry'; delayMs: number; unknownOutcome: boolean };

export const RETRY_MIN_MS = ENTRY_BACKOFF.baseMs;
export const RETRY_MAX_MS = ENTRY_BACKOFF.capMs;

/** Codes after which the request may have reached the service without the app hearing back. */
export const UNKNOWN_OUTCOME_CODES: ReadonlySet<string> = new Set([
  ...UNREACHABLE_CODES,
  'server_error',
  'bad_response',
  'cancelled',
]);

const PAUSE_CODES: Readonly<Record<string, PausedFor>> = {
  unauthorized: 'unauthorized',
  no_key: 'no_key',
  not_configured: 'not_configured',
};

/** Codes that mean the service refused this payload: staff must correct or discard it. */
const REFUSED_CODES: ReadonlySet<string> = new Set(['invalid', 'invalid_request']);

/** Codes retried later even when they carry a 4xx status. */
const RETRIED_CODES: ReadonlySet<string> = new Set(['rate_limited', 'banned', 'conflict', 'gone', 'timeout']);

/**
 * The wait after the n-th failure in a row (failed sends and failed checks alike): the app's
 * one backoff with the entries' settings (src/shared/basics/backoff.ts `ENTRY_BACKOFF`: 2 s · 2^(n-1),
 * at most 5 min, drawn between half the ceiling and the ceiling).
 */
export function retryDelay(failures: number, random: () => number = Math.random): number {
  return backoffDelay(Math.min(failures, 30) - 1, ENTRY_BACKOFF, random);
}

/**
 * The decision for an error answered to `createPet` when it is the entry's `failures`-th
 * failure in a row. A failure that proves the request never left (`notSent`) leaves the
 * outcome known whatever its code.
 */
export function decideAfterSendError(
  error: AppError,
  failures: number,
  random: () => number = Math.random,
): SendDecision {
  const pause = PAUSE_CODES[error.code];
  if (pause) return { kind: 'pause', reason: pause };
  if (REFUSED_CODES.has(error.code)) return { kind: 'needs_attention' };
  const status = error.status;
  const otherClientError = status !== undefined && status >= 400 && status < 500 && ![408, 409, 429].includes(status);
  if (otherClientError && !RETRIED_CODES.has(error.code)) return { kind: 'needs_attention' };
  const unknownOutcome =
    error.notSent !== true && (UNKNOWN_OUTCOME_CODES.has(error.code) || (status !== undefined && status >= 500));
  const delayMs =
    error.code === 'rate_limited' && error.retryAfterMs !== undefined
      ? Math.min(Math.max(error.retryAfterMs, RETRY_MIN_MS), RETRY_MAX_MS)
      : retryDelay(failures, random);
  return { kind: 'retry', delayMs, unknownOutcome };
}
