/**
 * Several devices on one key, with no channel between them: what this device can infer of
 * the others from `X-RateLimit-Remaining` alone, and when it may send so that together they
 * use the window to the last request without being refused.
 *
 * Inference. Within one window (same `X-RateLimit-Reset`) the service counts every accepted
 * request of the key. Between two of our responses, Remaining fell by what it counted in
 * between: our own requests (counted unless refused) and the others'. So others = drop − own,
 * which over the time between the two responses is the others' rate; times our round trip,
 * the others' requests in flight beside each of ours (about one per other device sending).
 *
 * The rule. A response saying `r` remain after our request hands us one more request only if
 * the others' requests in flight (`k`) leave room for it: r − k − ours in flight ≥ 1. When
 * every device keeps to it, each value of Remaining at or above k + 1 hands out at most one
 * request, so the window's requests add up to its limit and none is refused; a device whose
 * value was below that waits for the reset (plus a random delay of up to RESET_JITTER_MS, so
 * that the devices do not all fire at the boundary). Time since our last answer counts too:
 * the others went on at their rate, but by the same rule they can have taken at most
 * max(k, r − 1) of the r (when the others fall silent, as their work runs out, a device
 * finds the requests they left).
 */

export const RESET_JITTER_MS = 30;
/** How long after its start a window may still see devices joining (jitter, margin, round trips). */
const JOIN_MS = RESET_JITTER_MS + 300;
/** Others seen in a window older than this are forgotten. */
const MEMORY_MS = 2 * 60_000;
const SAMPLES = 24;

export interface Observation {
  /** Our dispatch number of the request this response answers. */
  seq: number;
  remaining: number;
  /** The raw `X-RateLimit-Reset`: one value per window. */
  resetKey: string;
  at: number;
  /** When the request went out (local ms). */
  sentAt: number;
}

interface WindowCount {
  resetKey: string;
  firstAt: number;
  others: number;
  /** Signed sum: a request of ours counted out of order errs one way, then the other. */
  othersSigned: number;
  own: number;
}

interface Interval {
  others: number;
  ms: number;
}

export class DeviceShare {
  private last: Observation | null = null;
  private current: WindowCount | null = null;
  private previous: WindowCount | null = null;
  /** Our requests refused (not counted by the service), by dispatch number. */
  private readonly refused = new Set<number>();
  /** Our last two intervals between answers of the same window (newest first). */
  private intervals: Interval[] = [];
  private roundTripMs = 0;
  /** The others' requests between two answers to consecutive requests of ours, newest first. */
  private samples: number[] = [];
  private jitter: { resetKey: string; ms: number } | null = null;

  constructor(
    private readonly random: () => number,
    /** Waited beyond a reset time (`X-RateLimit-Reset` has whole seconds). */
    private readonly marginMs: number,
  ) {}

  /** One of our requests was refused (429): the service did not count it. */
  onRefused(seq: number): void {
    this.refused.add(seq);
    if (this.refused.size > 256) this.refused.delete(this.refused.values().next().value as number);
  }

  observe(obs: Observation): void {
    const sample = Math.max(0, obs.at - obs.sentAt);
    this.roundTripMs = this.roundTripMs === 0 ? sample : 0.8 * this.roundTripMs + 0.2 * sample;
    const last = this.last;
    if (last && obs.seq <= last.seq) return; // an older answer overtaken by a newer one
    if (!this.current || this.current.resetKey !== obs.resetKey) {
      this.previous = this.current;
      // The first answer of a window counts nothing: Limit − Remaining may be our own use
      // before a restart as well as another device's.
      this.current = { resetKey: obs.resetKey, firstAt: obs.at, others: 0, othersSigned: 0, own: 1 };
    } else if (last) {
      const own = this.ownCounted(last.seq, obs.seq);
      const others = last.remaining - obs.remaining - own;
      this.current.own += own;
      this.current.othersSigned += others;
      this.current.others = Math.max(0, this.current.othersSigned);
      this.intervals = [{ others: Math.max(0, others), ms: Math.max(1, obs.at - last.at) }, ...this.intervals].slice(
        0,
        2,
      );
      if (own === 1) this.samples = [Math.max(0, others), ...this.samples].slice(0, SAMPLES);
    }
    this.last = obs;
  }

  /** Whether other devices used the key lately. */
  othersActive(now: number): boolean {
    return [this.current, this.previous].some((w) => w !== null && w.others > 0 && now - w.firstAt < MEMORY_MS);
  }

  /**
   * Estimated devices sending on the key, this one included: 1 + the others' requests between
   * two answers to consecutive requests of ours (each other device sends about one meanwhile).
   */
  devices(now: number): number {
    if (!this.othersActive(now)) return 1;
    // the upper quartile: an interval of ours shorter than the others' round trips sees fewer
    const sorted = [...this.samples].sort((a, b) => a - b);
    return Math.min(64, Math.max(2, 1 + (sorted[Math.floor(0.75 * (sorted.length - 1))] ?? 1)));
  }

  /**
   * The others' requests in flight beside ours (k): their rate times our round trip, at most
   * one per other device. Early in a window, the devices of the last one that have not come
   * yet will come, each with one request: no fewer then.
   */
  inFlightOthers(now: number): number {
    const fromRate = Math.ceil(this.othersRate() * this.roundTripMs);
    const k = Math.min(fromRate, this.devices(now) - 1);
    const joining = this.current !== null && now - this.current.firstAt < JOIN_MS;
    return joining ? Math.max(k, this.devices(now) - 1) : k;
  }

  /**
   * When our next request may go, given our requests in flight: `now` when it may go at once.
   * Only meaningful while others are active.
   */
  readyAt(now: number, inFlight: number, resetAt: number | null): number {
    const last = this.last;
    if (!last || !this.current || resetAt === null || resetAt <= now) return now;
    const k = this.inFlightOthers(now);
    const r = last.remaining;
    const othersAfterUs = Math.min(this.othersRate() * (now - last.at) + k, Math.max(k, r - 1));
    if (r - othersAfterUs - inFlight >= 1) return now;
    // still in the joining time: look again when the late devices would have come
    const joinEnd = this.current.firstAt + JOIN_MS;
    return joinEnd > now && joinEnd < resetAt ? joinEnd : this.afterReset(last.resetKey, resetAt);
  }

  /** The random delay after a reset, drawn once per window. */
  resetJitter(resetKey: string): number {
    if (!this.jitter || this.jitter.resetKey !== resetKey)
      this.jitter = { resetKey, ms: Math.floor(this.random() * RESET_JITTER_MS) };
    return this.jitter.ms;
  }

  private afterReset(resetKey: string, resetAt: number): number {
    return resetAt + this.marginMs + this.resetJitter(resetKey);
  }

  /** The others' requests per ms over our last two intervals. */
  private othersRate(): number {
    const others = this.intervals.reduce((sum, interval) => sum + interval.others, 0);
    const ms = this.intervals.reduce((sum, interval) => sum + interval.ms, 0);
    return ms === 0 ? 0 : others / ms;
  }

  private ownCounted(fromSeq: number, toSeq: number): number {
    let count = 0;
    for (let seq = fromSeq + 1; seq <= toSeq; seq += 1) if (!this.refused.has(seq)) count += 1;
    return count;
  }
}
