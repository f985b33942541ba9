/**
 * Errors cross every boundary (core → router → IPC/HTTP → renderer) as values, never as
 * exceptions: `{ ok: false, error: { code, message, retryAfterMs? } }`.
 */
import { z } from '../basics/zod';

/** Codes the app itself produces. A service's own unknown codes are passed through too. */
export const APP_ERROR_CODES = [
  'offline',
  'timeout',
  'unauthorized',
  'invalid',
  'not_found',
  'gone',
  'rate_limited',
  'banned',
  'server_error',
  'bad_response',
  'cancelled',
  'invalid_request',
  'keychain_unavailable',
  'not_configured',
  'no_key',
  'conflict',
  'internal',
  'storage_failed',
  'proxy_auth',
  /** An answer held an API key where a value of another kind belongs: it was withheld (electron/core/api/router.ts). */
  'withheld',
  /**
   * `createPet` only: not sent, because an earlier send of the same entry timed out less than
   * `SEND_SETTLES_MS` ago and the service may still store it (electron/core/service/service-channels.ts).
   * `retryAfterMs` says how long the entry waits; the request never left (`notSent`), and it says
   * nothing of whether the service is reachable. The sync engine sets that entry aside until then
   * and goes on with the others (src/sync/send-entry.ts).
   */
  'settling',
] as const;
export type AppErrorCode = (typeof APP_ERROR_CODES)[number];

/**
 * The codes that mean the service could not be reached: no connection (`offline`) or no answer
 * in time (`timeout`). The one list the core's connectivity tracking, the renderer's fallbacks
 * to saved data and the sync engine's "outcome unknown" rule all read.
 */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set<AppErrorCode>(['offline', 'timeout']);

export const AppError = z.object({
  code: z.string().check(z.minLength(1)),
  message: z.string(),
  retryAfterMs: z.optional(z.number().check(z.nonnegative())),
  /** HTTP status when the error came from the service. */
  status: z.optional(z.int()),
  /** The service's own `code` when its Error body had one. */
  serviceCode: z.optional(z.string()),
  /**
   * Present (true) only when the failure proves the request never reached the service: no
   * connection was made (refused, no such host, no network). Any other failure of a request
   * that was sent may have been acted on.
   */
  notSent: z.optional(z.literal(true)),
  /** The proxy that answered, "host:port" (`proxy_auth`: it asks for a login). */
  proxy: z.optional(z.string().check(z.maxLength(300))),
});
export type AppError = z.infer<typeof AppError>;

export type Ok<T> = { ok: true; data: T };
export type Err = { ok: false; error: AppError };
export type Result<T> = Ok<T> | Err;

export const ok = <T>(data: T): Ok<T> => ({ ok: true, data });
export const err = (code: AppErrorCode | (string & {}), message: string, extra: Partial<AppError> = {}): Err => ({
  ok: false,
  error: { ...extra, code, message },
});

/** The wire schema of a result whose data matches `data`. */
export function resultSchema<T extends z.ZodMiniType>(data: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: AppError }),
  ]);
}
