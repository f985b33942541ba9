/**
 * One call of a service operation (service-client.ts holds the operations): through the
 * profile's rate-limit governor, the profile's key for the target origin, one HTTP exchange
 * (http-client.ts), then the judging of the answer: the codec and the zod contract
 * (response-mapping.ts), the operation's own anomaly check, and what the governor is told
 * (may the attempt be repeated). Every attempt is reported to `onRequest`, scrubbed.
 */
import type { z } from 'zod';
import type { Clock } from '../../../src/shared/basics/clock';
import type { DiagnosticEntry } from '../../../src/shared/app-api/diagnostics';
import { t } from '../../../src/shared/i18n';
import { err, type Result } from '../../../src/shared/app-api/result';
import { buildUrl, type HttpOptions, MESSAGES, sendHttp } from '../http';
import { type BoundKey, KeychainUnavailableError, type Scrubber, scrubDiagnosticEntry } from '../keys';
import {
  type AttemptOutcome,
  type HeaderSource,
  QueueCancelledError,
  QUOTED_LENGTH,
  type RateLimitGovernor,
  type TaskKind,
} from '../rate-limit';
import { outcomeOf, resultOf } from './response-mapping';

/** Whom a call is for: the profile's service address, its key, its governor, and where each attempt is reported. */
export interface CallTarget {
  baseUrl: string;
  profileId: string;
  /**
   * The profile's key and the origin it is bound to; it is sent to that origin only. A bare
   * string (tests and tools) is bound to `baseUrl`'s origin.
   */
  getKey: () => Promise<BoundKey | string | null>;
  governor: RateLimitGovernor;
  clock: Clock;
  onRequest?: (entry: DiagnosticEntry) => void;
}

export interface Call<S extends z.core.$ZodType> {
  kind: TaskKind;
  method: 'GET' | 'POST';
  segments: string[];
  query?: URLSearchParams;
  body?: string;
  idempotencyKey?: string;
  schema: S;
  signal?: AbortSignal | undefined;
  /** Looks at a decoded answer: an anomaly to note in Diagnostics, which `refuse` turns into `bad_response`. */
  inspect?: (data: z.output<S>) => Anomaly | null;
  /** Told when the request goes out (a shared read can no longer be dropped then). */
  onSent?: () => void;
}

export interface Anomaly {
  note: string;
  refuse: boolean;
}

export interface Answer<T> {
  result: Result<T>;
  headers: Headers | null;
  fetchedAt: number;
}

/**
 * A creation whose answer was lost (connection dropped, timeout, a 500) may have been stored.
 * Only the outbox, which looks for such an animal before sending again, may resend it; the
 * core retries a POST only when the service certainly did not act on it (503, 409, 429).
 */
function attemptOutcome(method: string, result: Result<unknown>): AttemptOutcome {
  const outcome = outcomeOf(result);
  if (method !== 'POST' || result.ok || outcome !== 'transient') return outcome;
  return result.error.status === 503 || result.error.code === 'conflict' ? outcome : 'final';
}

const keyForOtherOrigin = (bound: string, target: string): string => t('core.keyForOtherOrigin', { bound, target });

/** The profile's key for `url`'s origin, or the error value that stops the call before anything is sent. */
async function readKey(options: CallTarget, url: URL): Promise<BoundKey | Result<never>> {
  try {
    const found = await options.getKey();
    if (!found) return err('no_key', t('core.noKey'));
    const bound = typeof found === 'string' ? { key: found, origin: new URL(options.baseUrl).origin } : found;
    if (bound.origin !== url.origin) return err('no_key', keyForOtherOrigin(bound.origin, url.origin));
    return bound;
  } catch (error) {
    return error instanceof KeychainUnavailableError
      ? err('keychain_unavailable', error.message)
      : err('internal', t('core.keyUnreadable'));
  }
}

/**
 * The `execute` of one client: runs a call and always resolves, with the judged result (a
 * cancelled or crashed task becomes an error value), the answer's headers and when it came.
 */
export function createExecute(options: CallTarget, scrubber: Scrubber, http: HttpOptions) {
  const { clock, governor } = options;

  async function execute<S extends z.core.$ZodType>(call: Call<S>): Promise<Answer<z.output<S>>> {
    const relative = `/${call.segments.join('/')}${call.query && [...call.query].length > 0 ? `?${call.query}` : ''}`;
    const retryable = call.method === 'GET' || Boolean(call.idempotencyKey);
    try {
      return await governor.schedule<Answer<z.output<S>>>(
        call.kind,
        async () => {
          call.onSent?.();
          const url = buildUrl(options.baseUrl, call.segments, call.query);
          const key = await readKey(options, url);
          if ('ok' in key)
            return { value: { result: key, headers: null, fetchedAt: clock.now() }, outcome: 'final', headers: null };
          scrubber.remember(key.key);
          const started = clock.now();
          const startedElapsed = clock.monotonic();
          const exchange = await sendHttp(
            {
              method: call.method,
              url,
              bearerKey: key.key,
              keyOrigin: key.origin,
              ...(call.body !== undefined ? { body: call.body } : {}),
              // an sf-string, as the IETF httpapi draft defines the header
              ...(call.idempotencyKey ? { headers: { 'Idempotency-Key': `"${call.idempotencyKey}"` } } : {}),
              ...(call.signal ? { signal: call.signal } : {}),
            },
            http,
          );
          const fetchedAt = clock.now();
          let result = resultOf(exchange, call.schema, fetchedAt, (text) => scrubber.text(text));
          const anomaly = result.ok && call.inspect ? call.inspect(result.data) : null;
          if (anomaly?.refuse) result = err('bad_response', anomaly.note);
          const headers = exchange.kind === 'response' ? exchange.response.headers : exchange.headers;
          const status = exchange.kind === 'response' ? exchange.response.status : exchange.status;
          const entry: DiagnosticEntry = {
            at: started,
            profileId: options.profileId,
            method: call.method,
            path: relative,
            status,
            // elapsed time: a clock set back during the request does not make it look long or short
            durationMs: Math.max(0, Math.round(clock.monotonic() - startedElapsed)),
            rateLimit: {
              limit: headers?.get('X-RateLimit-Limit') ?? null,
              remaining: headers?.get('X-RateLimit-Remaining') ?? null,
              reset: headers?.get('X-RateLimit-Reset') ?? null,
              retryAfter: headers?.get('Retry-After') ?? null,
            },
            idempotencyKey: call.idempotencyKey ?? null,
            outcome: result.ok ? 'ok' : result.error.code,
            via: exchange.via,
            ...(anomaly ? { note: anomaly.note } : {}),
          };
          options.onRequest?.(scrubDiagnosticEntry(entry, scrubber));
          // The governor quotes an unreadable header in its notice, cut to length: keys are hidden
          // in it first, so that no cut can leave a piece of one the service echoed.
          const heard: HeaderSource | null = headers && {
            get: (name) => headers.get(name),
            quote: (value) => scrubber.text(value).slice(0, QUOTED_LENGTH),
          };
          return {
            value: { result, headers, fetchedAt },
            outcome: attemptOutcome(call.method, result),
            headers: heard,
          };
        },
        { retryable, ...(call.signal ? { signal: call.signal } : {}) },
      );
    } catch (error) {
      const result =
        error instanceof QueueCancelledError
          ? err('cancelled', MESSAGES.cancelled)
          : err('internal', t('core.requestFailed'));
      return { result, headers: null, fetchedAt: clock.now() };
    }
  }

  return execute;
}
