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
import { type HeaderSource, parseHttpDate, readRateLimit, UNIX_SECONDS_FLOOR } from './rate-limit-headers';

const INTEGER_RESET = /^\s*\d+\s*$/;

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

/** Steps between windows shorter than this are not taken for fixed windows (see WindowPhase). */
const MIN_STEP_MS = 5000;
const PHASE_RESETS = 16;
/**
 * While the key is shared, how far after the soonest answer of a burst a device takes the
 * latest one of it as its bound on the windows' end (issue 34; see WindowPhase).
 */
const AGREE_MS = 100;
/** The answers kept to find it: the lowest receivedAt − 1000·R seen. */
const NEAR_KEPT = 64;
/**
 * A request sent this long after our previous answer of the same window was held (a close after
 * the burst, keepForClose in device-share.ts): its answer is not taken for the burst's end.
 */
const HELD_MS = 10;

/**
 * When the service's windows really end, from when our answers came rather than from the
 * whole-second `X-RateLimit-Reset` alone (issue 34). The header rounds each window's end up to
 * a second, so a device reading it alone comes back up to a second late, and devices whose
 * `Date` samples bracket the service's second differently disagree by as much.
 *
 * The model: fixed windows of a whole number of seconds, each starting where the last ended
 * (the local service: windows from the key's first request, at exact multiples). Then the
 * window with reset R ends at 1000·R + φ on our clock, the same φ for every R. An answer with
 * reset R received at r was counted in that window, which had begun by then: its end is at
 * most r + step, so φ ≤ r − 1000·R + step; one sent at s was counted before the end, so
 * φ > s − 1000·R. The answer that came soonest after a window began (the key's first, or a
 * window's first after a wait) bounds φ to a round trip; later ones keep it. While the key is
 * shared, a device takes instead the latest of its answers within AGREE_MS of that soonest one:
 * the devices' soonest answers are as far apart as their starts (the bench's 16 app cores: up
 * to 160 ms), and after the first window nobody answers sooner after a start (every device
 * comes back a second after it), so each device's bound stayed as loose as its start was late;
 * the first back took most of every window and the last, blind to a used-up window, were
 * refused. The burst's last answers came as the window ran out, for every device alike; not an
 * answer to a request held after the burst (HELD_MS), which came later still: a device that had
 * closed window 0 came back 60 ms after the others to every window and took 1 value of each
 * (8 devices at once, 1–4 ms one way, seed 6). It costs up to AGREE_MS in the last window. The
 * step is the
 * greatest common divisor of the differences between the resets seen (R only takes whole
 * seconds), taken only when it equals the smallest of them and is at least MIN_STEP_MS.
 *
 * Nothing here is invented if the model fails: every answer checks it (φ must stay above every
 * s − 1000·R, and the end not before the header's own earliest, 1000·R − 1 s less the skew's
 * upper bound), and on a contradiction, or a new limit (another window, the day's), it starts
 * again from that answer; the header's own bound stays in force beside it (RateWindow takes
 * the earlier of the two safe ends).
 */
export class WindowPhase {
  private limit: number | null = null;
  /** The distinct resets seen (epoch seconds), newest last. */
  private resets: number[] = [];
  /** min(receivedAt − 1000·R): φ ≤ this + step. */
  private earliest = Infinity;
  /** A refusal in a used-up window, received at r with Retry-After n s: φ ≤ min(r + 1000·n − 1000·R). */
  private refused: { phase: number; reset: number } | null = null;
  /** max(sentAt − 1000·R): φ > this. */
  private latest = -Infinity;
  /** The lowest receivedAt − 1000·R seen, ascending (at most NEAR_KEPT): the burst around `earliest`. */
  private near: number[] = [];
  /** Our last answer (its reset and when it came): a request of the same window sent well after it was held (a close). */
  private lastAnswer: { reset: number; receivedAt: number } | null = null;

  /**
   * Learns from one answer: its reset R (epoch seconds), limit, when its request went out
   * (null when unknown) and when it came (local ms); `headerEarliestEnd`: the earliest the
   * window can end by the header and the skew's upper bound (local ms, −Infinity when unknown).
   */
  observe(
    reset: number,
    limit: number | null,
    sentAt: number | null,
    receivedAt: number,
    headerEarliestEnd: number,
    /** A refusal with nothing remaining: its `Retry-After` in whole seconds, else null. */
    retryAfterS: number | null = null,
  ) {
    if (limit !== this.limit) this.forget(limit);
    this.add(reset, sentAt, receivedAt, retryAfterS);
    const end = this.endAt(reset);
    if (end !== null && (this.latest >= end - 1000 * reset || end < headerEarliestEnd)) {
      this.forget(limit);
      this.add(reset, sentAt, receivedAt, retryAfterS);
    }
  }

  /** The latest the window with reset R (epoch seconds) can end, on our clock; null when not known. */
  endAt(reset: number, shared = false): number | null {
    const step = this.stepMs();
    const bounds = [step === null ? Infinity : (shared ? this.burstLatest() : this.earliest) + step];
    // a refusal bounds its own window's end; the others' once the windows are seen to follow at a
    // fixed step, but for a device that shares the key, which holds the burst's bound as the others do
    if (this.refused !== null && (step !== null ? !shared : this.refused.reset === reset))
      bounds.push(this.refused.phase);
    const phase = Math.min(...bounds);
    return Number.isFinite(phase) ? 1000 * reset + phase : null;
  }

  private add(reset: number, sentAt: number | null, receivedAt: number, retryAfterS: number | null): void {
    if (!this.resets.includes(reset)) this.resets = [...this.resets, reset].slice(-PHASE_RESETS);
    this.earliest = Math.min(this.earliest, receivedAt - 1000 * reset);
    const last = this.lastAnswer;
    const held = last !== null && last.reset === reset && sentAt !== null && sentAt - last.receivedAt > HELD_MS;
    if (!held) this.near = [...this.near, receivedAt - 1000 * reset].sort((a, b) => a - b).slice(0, NEAR_KEPT);
    if (last === null || receivedAt >= last.receivedAt) this.lastAnswer = { reset, receivedAt };
    if (sentAt !== null && sentAt <= receivedAt) this.latest = Math.max(this.latest, sentAt - 1000 * reset);
    // Refused because the window was used up: the key is told to wait until a refusal's own time
    // plus its Retry-After rounded up, which is at or after the window's end (a wait carried over
    // from the window before ends before any value of this one is used: nothing is let through
    // meanwhile). So the end is at most our receipt plus our Retry-After.
    if (retryAfterS !== null) {
      const phase = receivedAt + 1000 * retryAfterS - 1000 * reset;
      if (this.refused === null || phase < this.refused.phase) this.refused = { phase, reset };
    }
  }

  private forget(limit: number | null): void {
    this.limit = limit;
    this.resets = [];
    this.earliest = Infinity;
    this.latest = -Infinity;
    this.refused = null;
    this.near = [];
  }

  /** The latest answer within AGREE_MS of the soonest one after a window began: the end every device of that burst holds. */
  private burstLatest(): number {
    return Math.max(this.earliest, ...this.near.filter((v) => v <= this.earliest + AGREE_MS));
  }

  /** Whether the windows are seen to follow at a fixed step. */
  stepKnown(): boolean {
    return this.stepMs() !== null;
  }

  private stepMs(): number | null {
    const sorted = [...this.resets].sort((a, b) => a - b);
    const steps = sorted.slice(1).map((reset, i) => reset - sorted[i]!);
    if (steps.length === 0) return null;
    const divisor = steps.reduce((a, b) => gcd(a, b));
    return divisor === Math.min(...steps) && divisor * 1000 >= MIN_STEP_MS ? divisor * 1000 : null;
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

export class RateWindow {
  limit: number | null = null;
  remaining: number | null = null;
  /** When the window resets, on the local clock (the governor's elapsed time), null when unknown. */
  resetAt: number | null = null;
  private readonly skew = new SkewEstimate();
  private readonly phase = new WindowPhase();
  /** The `X-RateLimit-Reset` value `resetAt` was read from. */
  private resetHeader: string | null = null;
  /** The first answer that carried a reset, as the end it allows: its receipt + (Reset − Date) (see `observe`). */
  private anchor: { reset: number; dateMs: number; endAt: number; slackMs: number } | null = null;
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
  observe(headers: HeaderSource, now: number, sentAt: number | null = null, refused = false, shared = false): string[] {
    this.learnDate(headers, now, sentAt);
    return this.observeLimits(headers, now, sentAt, refused, shared);
  }

  /**
   * Learns the skew from one answer's `Date`: the first half of `observe`. The governor reads
   * each answer through the skew its `Date` teaches, lets the device share count the answer, and
   * only then asks whether the key is shared and calls `observeLimits` (issue 34: a device whose
   * second answer was the first to show others held the first reset a second early).
   */
  learnDate(headers: HeaderSource, now: number, sentAt: number | null = null): void {
    this.skew.add(headers.get('Date'), sentAt, now);
  }

  /** The second half of `observe`: `X-RateLimit-*` and the window's end, once the answer's `Date` was learnt. */
  observeLimits(
    headers: HeaderSource,
    now: number,
    sentAt: number | null,
    refused: boolean,
    shared: boolean,
  ): string[] {
    const date = headers.get('Date');
    const reading = readRateLimit(headers, now, this.skewMs);
    const rawReset = headers.get('X-RateLimit-Reset');
    const reset = rawReset !== null && INTEGER_RESET.test(rawReset) ? Number(rawReset) : null;
    if (reading.resetAt !== null && reset !== null && reset >= UNIX_SECONDS_FLOOR) {
      const dateMs = date === null ? null : parseHttpDate(date);
      const candidate =
        dateMs === null ? null : { reset, dateMs, endAt: now + 1000 * reset - dateMs, slackMs: now - (sentAt ?? now) };
      if (
        this.anchor?.reset !== reset ||
        (candidate !== null && dateMs === this.anchor.dateMs && candidate.endAt > this.anchor.endAt)
      )
        this.anchor = candidate;
      // the earlier of two safe ends: the header's (rounded up to a second) and the one the answers show
      const retryAfter = headers.get('Retry-After');
      const retryAfterS =
        refused && reading.remaining === 0 && retryAfter !== null && INTEGER_RESET.test(retryAfter)
          ? Number(retryAfter)
          : null;
      this.phase.observe(reset, reading.limit, sentAt, now, 1000 * (reset - 1) - this.skew.highMs, retryAfterS);
      const end = this.phase.endAt(reset, shared);
      if (end !== null && (this.phase.stepKnown() || !shared || this.anchor === null)) {
        if (end > now) reading.resetAt = Math.min(reading.resetAt, end);
      } else if (shared && this.anchor !== null) {
        // No step known yet (the first window; issue 34). The header's reset through our own skew
        // bound is exact for a device whose answers crossed a second of the service's clock and up
        // to a second late for one whose answers all fell at one point of it: 16 devices at 900 ms
        // held it up to 893 ms apart, and the one that knew came back first and took the window
        // alone. While others use the key, each takes instead the latest end that its answers with
        // this reset and its first answer's `Date` allow: received at r with `Date` D, when the
        // service's clock read D + f (0 ≤ f < 1 s), so the reset R (whole seconds) is at
        // r + (R − D) − f ≤ r + (R − D). That is never before the header's (safe), at most a
        // second after it, and about the same for every device of the burst: its last answers in
        // that second came as the window ran out, whenever the device started (with the first
        // answer's alone, those that started first came back up to 60 ms sooner; issue 34). Nor
        // the bound a refusal's `Retry-After` gives (WindowPhase): only the refused device has it,
        // and the refused ones came back a second before the others and took window 1 (16 devices
        // starting over 0.1 s: two of them took 12 and 18 there and were done at 11.4 s, Jain
        // 0.74). The cost is that first change only; from the second reset on WindowPhase decides.
        const late = this.anchor.endAt - reading.resetAt;
        if (late > 0 && late <= 1000 + this.anchor.slackMs) reading.resetAt = this.anchor.endAt;
      }
    }
    if (reading.limit !== null) this.limit = reading.limit;
    if (reading.remaining !== null) {
      // Responses of concurrent requests arrive in any order: within one window the lowest
      // remaining seen is the truest; a new reset (header, or time a second off) means a new window.
      const sameWindow =
        reading.resetAt !== null &&
        this.resetAt !== null &&
        (rawReset === this.resetHeader || Math.abs(reading.resetAt - this.resetAt) < 1000);
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
