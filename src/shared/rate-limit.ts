/** What the rate-limit governor publishes for each profile, shown by the renderer's meter. */
import { z } from 'zod';

export const PAUSE_REASONS = ['remaining_zero', 'retry_after', 'backoff', 'banned', 'quota_exhausted'] as const;
export const PauseReason = z.enum(PAUSE_REASONS);
export type PauseReason = z.infer<typeof PauseReason>;

export const GovernorSnapshot = z.object({
  profileId: z.string(),
  /** X-RateLimit-Limit of the last response, null until one was seen. */
  limit: z.number().int().nonnegative().nullable(),
  remaining: z.number().int().nonnegative().nullable(),
  /** When the window resets, in local epoch ms (skew-corrected). */
  resetAt: z.number().nullable(),
  /** No request of this profile goes out before this local epoch ms. */
  pausedUntil: z.number().nullable(),
  pauseReason: PauseReason.nullable(),
  /** The daily quota is used up until `pausedUntil`. */
  dailyExhausted: z.boolean(),
  /** A probe request must succeed before the queue opens again. */
  probing: z.boolean(),
  queued: z.object({ reads: z.number().int().nonnegative(), writes: z.number().int().nonnegative() }),
  inFlight: z.number().int().nonnegative(),
  /** A plain-language note, e.g. that an unreasonable Retry-After was clamped. */
  notice: z.string().nullable(),
});
export type GovernorSnapshot = z.infer<typeof GovernorSnapshot>;
