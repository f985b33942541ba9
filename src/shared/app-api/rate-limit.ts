/** What the rate-limit governor publishes for each profile, shown by the renderer's meter. */
import { z } from '../basics/zod';

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
  limit: z.nullable(z.int().check(z.nonnegative())),
  remaining: z.nullable(z.int().check(z.nonnegative())),
  /** When the window resets, in local epoch ms (skew-corrected). */
  resetAt: z.nullable(z.number()),
  /** No request of this profile goes out before this local epoch ms. */
  pausedUntil: z.nullable(z.number()),
  pauseReason: z.nullable(PauseReason),
  /** The daily quota is used up until `pausedUntil`. */
  dailyExhausted: z.boolean(),
  /** A probe request must succeed before the queue opens again. */
  probing: z.boolean(),
  queued: z.object({ reads: z.int().check(z.nonnegative()), writes: z.int().check(z.nonnegative()) }),
  inFlight: z.int().check(z.nonnegative()),
  /** The requests are spaced (not paused): at most one per `intervalMs`, and why. */
  pacing: z.nullable(z.object({ intervalMs: z.number().check(z.positive()), reason: PacingReason })),
  /** A queued request waits for its pace until this local epoch ms (null when none waits). */
  heldUntil: z.nullable(z.number()),
  /** Devices estimated to use this key, this one included (1 when no other use was seen). */
  devices: z.int().check(z.positive()),
  /** A plain-language note, e.g. that an unreasonable Retry-After was clamped. */
  notice: z.nullable(z.string()),
});
export type GovernorSnapshot = z.infer<typeof GovernorSnapshot>;
