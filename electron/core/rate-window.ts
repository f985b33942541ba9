/**
 * What the governor knows of the service's current rate-limit window: limit, remaining,
 * reset time (on the local clock) and the estimated clock skew, learnt from the headers of
 * every response.
 */
import { estimateSkew, readRateLimit, type HeaderSource } from './rate-limit-headers';

const SKEW_SAMPLES = 16;

export class RateWindow {
  limit: number | null = null;
  remaining: number | null = null;
  /** Local epoch ms at which the window resets, null when unknown. */
  resetAt: number | null = null;
  private skewSamples: number[] = [];

  /** Server clock minus local clock in ms (0 until a `Date` header was seen). */
  get skewMs(): number {
    return this.skewSamples.length === 0 ? 0 : Math.max(...this.skewSamples);
  }

  /** Learns from one response's headers; returns the notices about unreasonable values. */
  observe(headers: HeaderSource, now: number): string[] {
    const skew = estimateSkew(headers.get('Date'), now);
    if (skew !== null) {
      this.skewSamples.push(skew);
      if (this.skewSamples.length > SKEW_SAMPLES) this.skewSamples.shift();
    }
    const reading = readRateLimit(headers, now, this.skewMs);
    if (reading.limit !== null) this.limit = reading.limit;
    if (reading.remaining !== null) {
      // Responses of concurrent requests arrive in any order: within one window the lowest
      // remaining seen is the truest; a new reset time means a new window.
      const sameWindow =
        reading.resetAt !== null && this.resetAt !== null && Math.abs(reading.resetAt - this.resetAt) < 1000;
      const sameUnknownWindow = reading.resetAt === null && this.resetAt === null;
      this.remaining =
        (sameWindow || sameUnknownWindow) && this.remaining !== null
          ? Math.min(this.remaining, reading.remaining)
          : reading.remaining;
      if (reading.resetAt !== null)
        this.resetAt = sameWindow ? Math.max(this.resetAt ?? 0, reading.resetAt) : reading.resetAt;
    } else if (reading.resetAt !== null) {
      this.resetAt = reading.resetAt;
    }
    return reading.notices;
  }

  /** Forgets the window once its reset time has passed. */
  expire(now: number): void {
    if (this.resetAt !== null && now >= this.resetAt) {
      this.remaining = null;
      this.resetAt = null;
    }
  }

  /** Forgets what remains (after a pause, the probe learns it again). */
  forgetRemaining(): void {
    this.remaining = null;
  }

  /** How many more requests may go out now, given `inFlight` already sent (Infinity if unknown). */
  available(inFlight: number): number {
    return this.remaining === null ? Infinity : this.remaining - inFlight;
  }

  /** The reset time when nothing remains and it is ahead, else null. */
  exhaustedUntil(now: number): number | null {
    return this.remaining === 0 && this.resetAt !== null && this.resetAt > now ? this.resetAt : null;
  }
}
