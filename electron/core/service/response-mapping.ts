/**
 * Turns an HTTP exchange into a result value: a 2xx body through the shared JSON codec
 * (exact int64) and the zod contract, anything else into an AppError with a plain-language
 * message, the service's own `code` (as `serviceCode`) and, where it helps, its message.
 * What it quotes from the service goes through `scrub` before it is cut to length, so a key
 * the service echoes is hidden whole, never cut in two (see scrub.ts).
 */
import { z } from 'zod';
import { ServiceError } from '../../../src/shared/records/animal';
import { t } from '../../../src/shared/i18n';
import { decodeJson } from '../../../src/shared/records/json-codec';
import { type AppError, err, ok, type Result } from '../../../src/shared/app-api/result';
import type { HttpExchange, HttpResponse } from '../http';
import { bounded, LIMITS } from '../keys';
import { type AttemptOutcome, readRateLimit, readRetryAfter } from '../rate-limit';

const MAX_QUOTED = 300;

/** What staff read of a service's answer, in the core's language (read when used: the language may change). */
export const ERROR_MESSAGES = {
  get badResponse() {
    return t('core.badResponse');
  },
  get unauthorized() {
    return t('core.unauthorized');
  },
  get invalid() {
    return t('core.invalid');
  },
  get notFound() {
    return t('core.notFound');
  },
  get conflict() {
    return t('core.conflict');
  },
  get gone() {
    return t('core.gone');
  },
  get banned() {
    return t('core.banned');
  },
  get rateLimited() {
    return t('core.rateLimited');
  },
  get busy() {
    return t('core.busy');
  },
  serverError: (status: number): string => t('core.serverError', { status }),
  refused: (status: number): string => t('core.refused', { status }),
};

/** Decodes a 2xx body against `schema`; anything that does not match is `bad_response`. */
export function decodeBody<S extends z.core.$ZodType>(text: string, schema: S): Result<z.output<S>> {
  let raw: unknown;
  try {
    raw = decodeJson(text);
  } catch {
    return err('bad_response', ERROR_MESSAGES.badResponse);
  }
  const parsed = z.safeParse(schema, raw);
  return parsed.success ? ok(parsed.data) : err('bad_response', ERROR_MESSAGES.badResponse);
}

function parseServiceError(text: string): ServiceError | null {
  try {
    const parsed = ServiceError.safeParse(decodeJson(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How long the service asked to wait, from Retry-After or else the rate-limit reset. */
export function retryAfterMsOf(headers: Headers, now: number): number | undefined {
  const retryAfter = readRetryAfter(headers.get('Retry-After'), now, 0);
  if (retryAfter.kind === 'wait') return retryAfter.waitMs;
  const resetAt = readRateLimit(headers, now, 0).resetAt;
  return resetAt !== null && resetAt > now ? resetAt - now : undefined;
}

/** Hides API keys in text quoted from the service (the core's scrubber in the app). */
export type ScrubText = (text: string) => string;

/** The AppError of a non-2xx response. */
export function errorFromResponse(response: HttpResponse, now: number, scrub: ScrubText): AppError {
  const { status } = response;
  const body = parseServiceError(response.text);
  const said = body ? bounded(scrub(body.message), MAX_QUOTED) : null;
  const withSaid = (plain: string): string => (said ? t('core.serviceSaid', { message: plain, said }) : plain);
  const extra: Partial<AppError> = { status, ...(body ? { serviceCode: bounded(scrub(body.code), LIMITS.code) } : {}) };
  const make = (code: string, message: string, more: Partial<AppError> = {}): AppError => ({
    ...extra,
    ...more,
    code,
    message,
  });
  if (status === 401) return make('unauthorized', withSaid(ERROR_MESSAGES.unauthorized));
  if (status === 400) return make('invalid', said ?? ERROR_MESSAGES.invalid);
  if (status === 404) return make('not_found', withSaid(ERROR_MESSAGES.notFound));
  if (status === 409) return make('conflict', ERROR_MESSAGES.conflict);
  if (status === 410) return make('gone', ERROR_MESSAGES.gone);
  if (status === 429) {
    const wait = retryAfterMsOf(response.headers, now);
    const more = wait === undefined ? {} : { retryAfterMs: wait };
    if (body?.code === 'key_banned') return make('banned', ERROR_MESSAGES.banned, more);
    return make('rate_limited', ERROR_MESSAGES.rateLimited, more);
  }
  // A 503 is how gateways (nginx limit_req, load balancers) refuse a burst: a throttle for
  // the whole profile, like a 429 (issue 11), and said so in the same words.
  if (status === 503) {
    const wait = retryAfterMsOf(response.headers, now);
    return make('rate_limited', withSaid(ERROR_MESSAGES.busy), wait === undefined ? {} : { retryAfterMs: wait });
  }
  if (status >= 500) return make('server_error', withSaid(ERROR_MESSAGES.serverError(status)));
  return make(`http_${status}`, said ?? ERROR_MESSAGES.refused(status));
}

/** The result of an exchange whose 2xx body must match `schema`. */
export function resultOf<S extends z.core.$ZodType>(
  exchange: HttpExchange,
  schema: S,
  now: number,
  scrub: ScrubText,
): Result<z.output<S>> {
  if (exchange.kind === 'failure') return { ok: false, error: exchange.error };
  const { response } = exchange;
  if (response.status >= 200 && response.status < 300) return decodeBody(response.text, schema);
  return { ok: false, error: errorFromResponse(response, now, scrub) };
}

/** What the governor needs to know of a result. */
export function outcomeOf(result: Result<unknown>): AttemptOutcome {
  if (result.ok) return 'ok';
  switch (result.error.code) {
    case 'rate_limited':
      return 'rate_limited';
    case 'banned':
      return 'banned';
    case 'offline':
    case 'timeout':
    case 'server_error':
    case 'conflict':
      return 'transient';
    default:
      return 'final';
  }
}
