/** One line of the request log shown in Diagnostics. Never holds a secret. */
import { z } from '../basics/zod';

export const DiagnosticEntry = z.object({
  at: z.number(),
  profileId: z.string(),
  method: z.string(),
  /** Path relative to the profile's base address, with its query. */
  path: z.string(),
  /** HTTP status, or null when no response came (offline, timeout, cancelled). */
  status: z.nullable(z.int()),
  durationMs: z.number().check(z.nonnegative()),
  rateLimit: z.object({
    limit: z.nullable(z.string()),
    remaining: z.nullable(z.string()),
    reset: z.nullable(z.string()),
    retryAfter: z.nullable(z.string()),
  }),
  idempotencyKey: z.nullable(z.string()),
  /** `ok` or the app error code. */
  outcome: z.string(),
  /** An anomaly in the answer, in plain words (e.g. ids repeated in one list answer). */
  note: z.optional(z.string()),
  /** The way the request went: "DIRECT", "PROXY host:port", "SOCKS5 host:port" (electron/core/http/proxy.ts). */
  via: z.optional(z.string()),
});
export type DiagnosticEntry = z.infer<typeof DiagnosticEntry>;

export const DIAGNOSTICS_KEPT = 200;
