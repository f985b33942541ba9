/** What the rate-limit governor publishes for each profile, shown by the renderer's meter. */
import { z } from 'zod';

export const PAUSE_REASONS = [
  'remaining_zero',
  'retry_after',
  'backoff',
  /** Refused (429/503) with nothing said about how long to wait: a pause the governor chose. */
  'throttled',
  'banned',
  'quota_exhausted',
] as const;
export const PauseReason = z.enum(PAUSE_REASONS);
export type PauseReason = z.infer<typeof PauseReason>;

/**
 * Why the governor spaces this profile's requests: `assumed_plan` (no rate headers: the
 * smallest plan of the interface, 60 per minute), `learned` (cut after refusals without
 * headers), `shared_key` (other devices use the same key: this device keeps to its share).
 */
export const PACING_REASONS = ['assumed_plan', 'learned', 'shared_key'] as const;
export const PacingReason = z.enum(PACING_REASONS);
export type PacingReason = z.infer<typeof PacingReason>;

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
  /** The requests are spaced (not paused): at most one per `intervalMs`, and why. */
  pacing: z.object({ intervalMs: z.number().positive(), reason: PacingReason }).nullable(),
  /** A queued request waits for its pace until this local epoch ms (null when none waits). */
  heldUntil: z.number().nullable(),
  /** Devices estimated to use this key, this one included (1 when no other use was seen). */
  devices: z.number().int().positive(),
  /** A plain-language note, e.g. that an unreasonable Retry-After was clamped. */
  notice: z.string().nullable(),
});
export type GovernorSnapshot = z.infer<typeof GovernorSnapshot>;
