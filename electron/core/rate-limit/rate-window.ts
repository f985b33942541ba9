/**
 * What the governor knows of the service's current rate-limit window: limit, remaining,
 * reset time (on the local clock) and the estimated clock skew, learnt from the headers of
 * every response.
 */
import { type HeaderSource, parseHttpDate, readRateLimit } from './rate-limit-headers';

/** Skew samples kept: the most recent ones, none older than SKEW_MEMORY_MS. */
const SKEW_SAMPLES = 256;
const SKEW_MEMORY_MS = 2 * 60 * 1000;
/**
 * The skew is known well enough for devices to agree on a reset when its bounds are this
 * close, beyond what one round trip leaves uncertain anyway (see `probeAt`).
 */
export const SKEW_AGREED_MS = 60;

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
 * A stepped clock breaks the invariant: when a new sample does not meet the intersection of the
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

  /** The largest lower bound of the offset (0 until a `Date` header was seen): the safe estimate. */
  get lowMs(): number {
    return this.samples.length === 0 ? 0 : Math.max(...this.samples.map((kept) => kept.low));
  }

  /** The smallest upper bound of the offset (Infinity when none is known). */
  get highMs(): number {
    return Math.min(Infinity, ...this.samples.map((kept) => kept.high));
  }

  /**
   * When to send a request so that its answer halves what is known of the offset, or null
   * when the bounds are within SKEW_AGREED_MS + one round trip of each other (or nothing
   * bounds the offset from above yet).
   *
   * Why. The service's `Date` changes once a second of its clock; only an answer to a request
   * that reached it just after such a change makes the lower bound tight. A device whose
   * requests always reach the service at the same point of its second (a burst at the start of
   * each window) keeps a lower bound up to a second low, and so waits for each reset up to a
   * second longer than a device that happened to cross a second: devices on one key disagree
   * on when a window starts by up to a second (issue 34). Aimed at the instant where, were the
   * offset the middle of its bounds, the service's next second begins: arriving before it, the
   * answer carries the old second and lowers the upper bound to about the middle; after it, the
   * new second, and it raises the lower bound to about the middle. Each such request halves the
   * bounds (plus the one-way trip), so four or five of them bring a second down to tens of ms.
   */
  probeAt(now: number, roundTripMs: number): number | null {
    const low = this.lowMs;
    const high = this.highMs;
    if (this.samples.length === 0 || !Number.isFinite(high) || high - low <= SKEW_AGREED_MS + roundTripMs) return null;
    const middle = (low + high) / 2;
    const oneWay = roundTripMs / 2;
    // the next second of the service's clock that a request sent now could still reach (1 ms
    // of slack: asked again at the instant it named, it names that instant, not a second later)
    const second = Math.ceil((now + oneWay + middle - 1) / 1000) * 1000;
    return Math.max(now, second - middle - oneWay);
  }
}

export class RateWindow {
  limit: number | null = null;
  remaining: number | null = null;
  /** Local epoch ms at which the window resets, null when unknown. */
  resetAt: number | null = null;
  private readonly skew = new SkewEstimate();
  /** The `X-RateLimit-Reset` value `resetAt` was read from. */
  private resetHeader: string | null = null;

  /** Server clock minus local clock in ms, its safe (largest known lower) bound; 0 until a `Date` was seen. */
  get skewMs(): number {
    return this.skew.lowMs;
  }

  /** When a request would best tighten the skew's bounds; null when they are tight (`SkewEstimate.probeAt`). */
  skewProbeAt(now: number, roundTripMs: number): number | null {
    return this.skew.probeAt(now, roundTripMs);
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
