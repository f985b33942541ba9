/**
 * The rate the governor learns for a profile whose service says little: no `X-RateLimit-*`
 * (a gateway in front of it hides them), refusals (429, 503) without a window to wait for.
 * AIMD, as TCP learns a link's capacity: the allowed rate is cut multiplicatively on each
 * refusal and raised additively while requests are accepted; it is kept across successes.
 *
 * - It starts at the smallest plan the interface lists (Free: 60 requests per minute), the
 *   only rate a key is promised, as soon as a response comes without rate headers.
 * - The raise is slow (about +6 % per 60 accepted requests) because a refusal may cost a
 *   30-second `Retry-After`, or count towards a ban of the key: safety before speed.
 * - Each refusal in a row doubles the profile's pause (a single success does not reset it:
 *   the streak falls by one per STREAK_DECAY accepted requests).
 * - `X-RateLimit-*` win: once responses carry them, the learned rate is dropped unless a
 *   refusal without headers came within LEARNED_MEMORY_MS (a gateway stricter than them).
 */

/** Free plan: 60 requests per minute (interface.md, "Rate limits by plan"). */
export const FLOOR_PLAN_RATE = 1;
/** Never slower than one request per minute. */
export const MIN_RATE = 1 / 60;
/** Multiplicative decrease on a refusal. */
export const DECREASE = 0.7;
/** Additive increase per accepted request, as a share of the rate after the last cut. */
export const INCREASE = 0.001;
export const STREAK_DECAY = 8;
export const MIN_PAUSE_MS = 1000;
export const MAX_PAUSE_MS = 60_000;
const LEARNED_MEMORY_MS = 10 * 60_000;

export class AdaptiveRate {
  /** Requests per second allowed, null while the service's headers govern. */
  private allowed: number | null = null;
  /** The rate after the last cut (or the start): the unit of the additive increase. */
  private base: number;
  private nextAt = 0;
  private streak = 0;
  private acceptedSinceDecay = 0;
  private lastRefusalAt: number | null = null;
  private lastSentAt: number | null = null;
  /** Whether the rate was learned from a refusal (else it is the assumed floor plan). */
  private learned = false;

  constructor(
    private readonly random: () => number,
    /** The rate assumed while the service tells none (requests per second). */
    private readonly assumed = FLOOR_PLAN_RATE,
  ) {
    this.base = assumed;
  }

  /** Requests per second while pacing, else null. */
  get rate(): number | null {
    return this.allowed;
  }

  get isLearned(): boolean {
    return this.learned;
  }

  /** A response without rate headers: pace at the floor plan's rate if nothing else is known. */
  onHeaderless(): void {
    if (this.allowed !== null) return;
    this.start(this.assumed);
    // the request just answered counts: the next one waits one interval after it
    if (this.lastSentAt !== null) this.nextAt = Math.max(this.nextAt, this.lastSentAt + 1000 / this.assumed);
  }

  /** A response with `X-RateLimit-*`: they govern, unless a header-less refusal came lately. */
  onHeaders(now: number): void {
    if (this.allowed === null) return;
    if (this.lastRefusalAt !== null && now - this.lastRefusalAt < LEARNED_MEMORY_MS) return;
    this.allowed = null;
    this.learned = false;
    this.streak = 0;
  }

  /** When the next request may go (pacing), or `now` when not pacing. */
  readyAt(now: number): number {
    return this.allowed === null ? now : Math.max(now, this.nextAt);
  }

  /** A request went out: the next one waits one interval. */
  onSent(now: number): void {
    this.lastSentAt = now;
    if (this.allowed === null) return;
    this.nextAt = Math.max(now, this.nextAt) + 1000 / this.allowed;
  }

  /** A request was accepted; `held` when the pace kept requests waiting (there is demand). */
  onAccepted(held: boolean): void {
    if (this.allowed === null) return;
    if (held) this.allowed += INCREASE * this.base;
    this.acceptedSinceDecay += 1;
    if (this.acceptedSinceDecay >= STREAK_DECAY) {
      this.acceptedSinceDecay = 0;
      this.streak = Math.max(0, this.streak - 1);
    }
  }

  /**
   * A refusal that told no window to wait for: cuts the rate and returns the profile's pause,
   * [w, 2w) with w = max(1 s, one interval of the cut rate) doubled per refusal in a row, at
   * most 60 s.
   */
  onRefused(now: number): number {
    this.start(Math.max(MIN_RATE, DECREASE * (this.allowed ?? this.assumed)));
    this.learned = true;
    this.lastRefusalAt = now;
    this.streak += 1;
    this.acceptedSinceDecay = 0;
    const interval = 1000 / (this.allowed ?? this.assumed);
    // never sooner than one interval of the cut rate; jitter upwards, so that devices spread
    const base = Math.max(MIN_PAUSE_MS, interval) * 2 ** Math.min(this.streak - 1, 16);
    const pause = Math.floor(Math.min(MAX_PAUSE_MS, base * (1 + Math.min(Math.max(this.random(), 0), 1))));
    // after the pause the probe goes at once, then the pace resumes
    this.nextAt = now + pause;
    return pause;
  }

  private start(rate: number): void {
    this.allowed = rate;
    this.base = rate;
  }
}
