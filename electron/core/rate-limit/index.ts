/**
 * The rate-limit governor: one per profile, the one owner of when each request goes out
 * (pacing to the service's rate headers or a learnt rate, pauses after 429/503, the key's
 * window shared with other devices, retries of what the service certainly did not act on).
 * Used by app-core.ts and the service client.
 */
export { QueueCancelledError, RateLimitGovernor, type AttemptOutcome, type TaskKind } from './governor';
export { type HeaderSource, QUOTED_LENGTH, readRateLimit, readRetryAfter } from './rate-limit-headers';
