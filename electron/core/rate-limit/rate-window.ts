/**
 * What the governor knows of the service's current rate-limit window: limit, remaining,
 * reset time (on the local clock) and the estimated clock skew, learnt from the headers of
 * every response.
 *
 * The local clock here is the governor's: elapsed time (`Clock.monotonic`), which the computer's
 * clock being set back or forward does not move. The service's dates (`Date`, an epoch
 * `X-RateLimit-Reset`, an HTTP-date `Retry-After`) become deadlines on it once, on receipt,
 * through the skew: the service's clock minus ours, learnt from `Date`, or until one was seen
 * the computer's wall clock minus ours (`localOffsetMs`: the wall clock taken as the service's).
 */
import { type HeaderSource, parseHttpDate, readRateLimit } from './rate-limit-headers';

/** Skew samples kept: the most recent ones, none older than SKEW_MEMORY_MS. */
const SKEW_SAMPLES = 256;
const SKEW_MEMORY_MS = 2 * 60 * 1000;

/** What one response's `Date` says about the offset (server clock minus local clock), in ms. */
interface SkewSample {
  low: number;
  high: number;
  at: number;
}

/**
 * The offset between the server's clock and ours, bracketed by the responses' `Date` headers.
 *
 * A response sent at local `sentAt` and received at local `receivedAt` carries
 * `Date` = the server's clock at some instant of the exchange, truncated to the second. At that
 * instant the server clock read s ∈ [Date, Date + 1 s) and the local clock l ∈ [sentAt, receivedAt],
 * so the offset o = s − l satisfies  low = Date − receivedAt ≤ o < Date + 1 s − sentAt = high.
 * While neither clock is stepped, o is the same for every sample, so it lies in the intersection
 * [max low, min high]; a response made just after a server second boundary makes max low tight.
 *
 * Why `lowMs` (max low) is the safe value. The server says a wait ends at server time T (a reset
 * or an HTTP-date). A request we send at local time t reaches the server at server time
 * ≥ t + o ≥ t + lowMs; so sending at t ≥ T − lowMs guarantees it arrives at ≥ T. Any larger
 * estimate (the midpoint, or high) could make it arrive before T. Truncation of `Date`, a slow
 * response and a late `receivedAt` can only make `low` smaller: later, never earlier.
 *
 * A stepped clock breaks the invariant (ours is monotonic, so only the server's can be): when a new sample does not meet the intersection of the
 * kept ones, the old ones are dropped and the estimate starts again from the new one (only ever
 * lowering a too-high estimate; an upper bound that is wrong for any reason likewise only drops
 * samples, which lowers or keeps `lowMs`). Samples also expire after SKEW_MEMORY_MS.
 */
export class SkewEstimate {
  private samples: SkewSample[] = [];

  /** Learns from one `Date` header; `sentAt` null when unknown (then only the lower bound counts). */
  add(dateHeader: string | null, sentAt: number | null, receivedAt: number): void {
    if (dateHeader === null) return;
    const serverMs = parseHttpDate(dateHeader);
    if (serverMs === null) return;
    const sample = {
      low: serverMs - receivedAt,
      high: sentAt === null || sentAt > receivedAt ? Infinity : serverMs + 1000 - sentAt,
      at: receivedAt,
    };
    this.samples = this.samples.filter((kept) => kept.at > receivedAt - SKEW_MEMORY_MS && kept.at <= receivedAt);
    const low = Math.max(...this.samples.map((kept) => kept.low));
    const high = Math.min(...this.samples.map((kept) => kept.high));
    if (sample.high < low || sample.low > high) this.samples = [];
    this.samples.push(sample);
    if (this.samples.length > SKEW_SAMPLES) this.samples.shift();
  }

  /** Whether a `Date` header was seen (and not forgotten). */
  get known(): boolean {
    return this.samples.length > 0;
  }

  /** The largest lower bound of the offset (0 until a `Date` header was seen): the safe estimate. */
  get lowMs(): number {
    return this.samples.length === 0 ? 0 : Math.max(...this.samples.map((kept) => kept.low));
  }

  /** The smallest upper bound of the offset (Infinity when none is known). */
  get highMs(): number {
    return Math.min(Infinity, ...this.samples.map((kept) => kept.high));
  }
}

export class RateWindow {
  limit: number | null = null;
  remaining: number | null = null;
  /** When the window resets, on the local clock (the governor's elapsed time), null when unknown. */
  resetAt: number | null = null;
  private readonly skew = new SkewEstimate();
  /** The `X-RateLimit-Reset` value `resetAt` was read from. */
  private resetHeader: string | null = null;
  /**
   * The computer's wall clock minus the local clock, as last read (0 when they are one): the
   * skew taken until a `Date` header was seen. The governor sets it before each response is read.
   */
  localOffsetMs = 0;

  /**
   * Server clock minus local clock in ms, its safe (largest known lower) bound; until a `Date`
   * was seen, the wall clock is taken for the server's (`localOffsetMs`).
   */
  get skewMs(): number {
    return this.skew.known ? this.skew.lowMs : this.localOffsetMs;
  }

  /**
   * Learns from the headers of a response received at `now` to a request sent at `sentAt`
   * (null when unknown); returns the notices about unreasonable values.
   */
  observe(headers: HeaderSource, now: number, sentAt: number | null = null): string[] {
    this.skew.add(headers.get('Date'), sentAt, now);
    const reading = readRateLimit(headers, now, this.skewMs);
    const rawReset = headers.get('X-RateLimit-Reset');
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
      // the same Reset header again: converted with the newest (tightest safe) skew estimate
      const sameHeader = sameWindow && rawReset === this.resetHeader;
      if (reading.resetAt !== null)
        this.resetAt = sameWindow && !sameHeader ? Math.max(this.resetAt ?? 0, reading.resetAt) : reading.resetAt;
    } else if (reading.resetAt !== null) {
      this.resetAt = reading.resetAt;
    }
    if (reading.resetAt !== null) this.resetHeader = rawReset;
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
