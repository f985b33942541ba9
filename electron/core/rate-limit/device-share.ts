/**
 * Several devices on one key, with no channel between them: what this device can infer of
 * the others from `X-RateLimit-Remaining` alone, and when it may send so that together they
 * use the window to the last request without being refused.
 *
 * Inference. Within one window (same `X-RateLimit-Reset`) the service counts every accepted
 * request of the key. Between two of our responses, Remaining fell by what it counted in
 * between: our own requests (counted unless refused) and the others'. So others = drop − own:
 * counted between two answers of ours. The others' requests in flight beside ours are that
 * count over the part of the interval our request was on its way (issue 34): a device that
 * held its next request for 100 ms counted the others' whole burst of those 100 ms (55 with 16
 * devices, bench traces), held back as many in every later decision of the window and took 1
 * of its 11 tasks in the last window: a sixth window.
 *
 * The rule. A response saying `r` remain after our request hands us one more request only if
 * the others' requests in flight (`k`) leave room for it: r − k − ours in flight ≥ 1. When
 * every device keeps to it, each value of Remaining at or above k + 1 hands out at most one
 * request, so none is refused. Time since our last answer counts too: the others went on at
 * their rate, but by the same rule they can have taken at most max(k, r − 1) of the r.
 *
 * Closing the window (issue 24). `k` is only ever an estimate: one too many and the window's
 * last value is never used (nobody else sends it either: they hold back too), one too few and
 * a request is refused. Nothing tells a device whether the requests it held back for came
 * (no channel between devices), and the bench showed both: a window left one short anywhere,
 * or in the last window devices holding back for others whose work had run out — with 300
 * creations = 5 full windows, either costs a whole window (1.28 × instead of 1.04 ×). So the
 * uncertainty is given to one device per window, which every other knows is not itself: the
 * one whose request took the window's first value (Remaining = Limit − 1; each value goes to
 * exactly one request). The others hold back a request more than they measure
 * (OTHERS_MARGIN), so the window nearly always ends with values left rather than a refusal;
 * the opener, once the key has been quiet long enough for every request in flight to have
 * been counted, sends again: its answers are then the only ones, so it knows exactly what
 * remains and drains it without a refusal. In the last window the opener may have no work
 * left while others do; a device whose own remaining work fits in what it last saw remain
 * and is no more than half what it took this window (its work likely ends here) closes too. That
 * cannot be refused only when the work of all devices together fits in what is left, as in
 * the last window of a drain that fits; in a middle window it need not (each closer's work
 * fits in what it saw, not their sum): on the fake clock with 16 devices, several devices
 * that got ahead close together in window 2, are refused, and the refusal's wait catches
 * every device coming back to window 3 (issue 34; docs/performance.md section 6). Half, not
 * all of it (issue 34, eleventh attempt): once devices share the windows fairly they all have
 * about one window's share left in the last window but one, each closed it, and 1–5 were
 * refused there in four of five 8-device bench runs; in the last window they have a request or
 * two, and one or two always close (FINISH_SMALL, twelfth attempt). A device that has to wait
 * comes back once no refusal of the window can still make the key wait (returnAt: a second after
 * its end, plus a random delay of up to RESET_JITTER_MS, so that the devices do not all fire at
 * once), which is what keeps such refusals from banning the key; the more it still has to send,
 * the sooner (a step per request, longer at longer round trips), so that the first back, the
 * window's opener, has the most work left to close it with (issue 34, twelfth and fifteenth attempts).
 */

/**
 * The random part of the delay after a reset (returnAt): 30 ms until issue 34's eleventh attempt. With the others
 * coming 20 ms + 0–30 ms after the devices behind, 16 devices came back to a window over 50–80 ms while the
 * first ones used it in 35–40 ms, and the last ones' first requests were refused (2.0–4.5 % of all at 16 devices,
 * 1.3–1.6 % in four of five runs at 8); with 0–10 ms, 1.6–3.5 % and 0–1.0 %.
 */
export const RESET_JITTER_MS = 10;
/**
 * How long after a window's end a refusal made in it can still make the key wait: the service
 * answers a request over the limit with `Retry-After` rounded up to whole seconds and counts
 * every request sent before that wait ends towards a ban (test/service/rate-limits.ts), so a
 * refusal at any moment of a window makes the key wait until less than a second after its end.
 */
export const CARRIED_WAIT_MS = 1000;
/** Beyond CARRIED_WAIT_MS: the wait ends strictly before it, and our request arrives after it is sent. */
const CARRIED_MARGIN_MS = 20;
/** After a window, a device with nothing left to send comes back this many steps later than one with 10 or more (returnAt) … */
const RETURN_ORDER_STEPS = 10;
/** … each request it still has to send bringing it back a step sooner: at least this long … */
const RETURN_ORDER_STEP_MS = 4;
/** … or this share of our round trip, so that requests sent in that order arrive in it (issue 34, fifteenth attempt) … */
const RETURN_ORDER_STEP_ROUND_TRIP = 0.6;
/** … at most this long. */
const RETURN_ORDER_STEP_MAX_MS = 10;
/** A device whose work ends in a window closes it when what it still has to send is at most this many (or at most half what it took). */
const FINISH_SMALL = 2;
/** How long after its start a window may still see devices joining (jitter, margin, round trips). */
const JOIN_MS = 330;
/** Others seen in a window older than this are forgotten. */
const MEMORY_MS = 2 * 60_000;
const SAMPLES = 24;
/** The others' requests in flight: the most counted in one of our last so many round trips (a device whose work ran out drops out after them). */
const K_ROUND_TRIPS = 2;
/** What a device other than the opener holds back beyond what it measures: the opener takes it once the key is quiet. */
const OTHERS_MARGIN = 1;
/** Quiet before closing: every request in flight has been counted by then (round trips of ours, at least CLOSE_QUIET_MS). */
const CLOSE_QUIET_ROUND_TRIPS = 4;
const CLOSE_QUIET_MS = 20;
/** While others still send, the opener down to the tasks it keeps for the close waits at least so many of its round trips between requests. */
const KEEP_GAP_ROUND_TRIPS = 4;
/** A device closes the window when its remaining work is at most 1 / FINISH_FACTOR of what it took in it, or FINISH_SMALL (and fits in what remains). */
const FINISH_FACTOR = 2;
/** Beyond one task per device, the opener keeps this many for the requests it sends while the others finish the burst (keepForClose). */
const KEEP_LOOKS = 2;
/** A first answer ever with at most this share of the limit remaining found the window busy (firstFoundBusy). */
const BUSY_REMAINING_SHARE = 0.9;
/** The first window change's reserve (reserveUntil): at most this share of the limit. */
const RESERVE_SHARE = 0.25;
/** How much later than ours another device may hold the first reset: its first answer's end (rate-window.ts). */
const FIRST_END_SPREAD_MS = 1000;
/** The reserve is kept when the first window showed this many devices (or a refusal of ours, or a first answer that found the window used). */
const RESERVE_MIN_DEVICES = 9;
/** Counts of the others in the first window below which its most is not taken as the devices (reserve). */
const RESERVE_MIN_COUNTS = 3;
/**
 * The first window's room (roomUntil) is kept only where the window, by its header, lasts at least
 * this long after the hold: the header's end may be up to a second late (whole seconds), and the
 * opener needs the rest to take the room.
 */
const ROOM_TAIL_MS = FIRST_END_SPREAD_MS + 500;

export interface Observation {
  /** Our dispatch number of the request this response answers. */
  seq: number;
  remaining: number;
  /** The raw `X-RateLimit-Reset`: one value per window. */
  resetKey: string;
  at: number;
  /** When the request went out (local ms). */
  sentAt: number;
  /** `X-RateLimit-Limit`, when given. */
  limit?: number | null;
  /** The header's reset on our clock (through our safe skew), when given: the latest the service's clock reads it. */
  headerResetAt?: number | null;
}

interface WindowCount {
  resetKey: string;
  firstAt: number;
  others: number;
  /** Signed sum: a request of ours counted out of order errs one way, then the other. */
  othersSigned: number;
  own: number;
  /** Our request took the window's first value (Remaining = Limit − 1): we close the window. */
  opened: boolean;
  /** The header's reset of this window on our clock, as its first answer gave it. */
  headerResetAt: number | null;
  /** The device's first window (its first answer came in it). */
  first: boolean;
  /** One of our requests was refused in it. */
  refusedHere: boolean;
  /** The most others counted between two answers to consecutive requests of ours in it, and how many such counts. */
  maxOthers: number;
  counts: number;
  /** Others counted between our last two answers in it (null before the second): 0 when the key was quiet. */
  lastOthers: number | null;
  /** Requests the window had counted before our first answer in it (Limit − 1 − Remaining; 0 when the limit is unknown). */
  before: number;
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
  /** When an answer last showed others on the key (keyShared). */
  private sharedAt: number | null = null;
  /**
   * Our first answer ever found the window used: nothing remaining, or fewer than the limit less our
   * request (others' requests, or ours before a restart; see reserveUntil).
   */
  private firstFoundUsed = false;
  /**
   * Our first answer ever found at least a tenth of the window used (BUSY_REMAINING_SHARE): the first
   * change's reserve is kept for it (reserveUntil). Not for a few requests before ours: a device whose
   * first answer found 1–5 counted (a key used a moment before, by a test's own requests) kept the
   * reserve in its second window and waited for that window's end with work queued (over 30 s in the
   * Spanish end-to-end test); with the reserve only for a first answer down to half the limit, 16
   * devices starting over 0.2 s were banned once (seed 6), those that came early in window 0's burst
   * coming back to window 1 before the others.
   */
  private firstFoundBusy = false;
  private limit: number | null = null;

  constructor(private readonly random: () => number) {}

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
    let current = this.current;
    if (!current || current.resetKey !== obs.resetKey) {
      this.previous = current;
      // The first answer of a window counts nothing: Limit − Remaining may be our own use
      // before a restart as well as another device's.
      current = {
        resetKey: obs.resetKey,
        firstAt: obs.at,
        others: 0,
        othersSigned: 0,
        own: 1,
        opened: false,
        headerResetAt: obs.headerResetAt ?? null,
        first: this.last === null,
        refusedHere: false,
        maxOthers: 0,
        counts: 0,
        lastOthers: null,
        before: obs.limit != null ? Math.max(0, obs.limit - 1 - obs.remaining) : 0,
      };
      this.current = current;
      // Our first answer ever found the window used (another device's use, or ours before a restart):
      // used up, or, with the first window's room (roomUntil), counted before ours: a device that
      // started late gets the room's value, and (when a tenth of the window was used before it,
      // firstFoundBusy) holds the first change's reserve as a refused one did.
      if (this.last === null) {
        this.firstFoundUsed = obs.remaining === 0 || (obs.limit != null && obs.remaining < obs.limit - 1);
        this.firstFoundBusy =
          obs.remaining === 0 || (obs.limit != null && obs.remaining <= Math.ceil(obs.limit * BUSY_REMAINING_SHARE));
      }
      // Accepted past that first window, such a device counts the key as shared (keyShared), as the reserve
      // did: held to a request or so a window by it, it may meet no other between two answers
      // and came back at the reset + 100 ms into another's refusal's wait (16 devices starting
      // over 3 s, phase 900 seed 2: window 3).
      else if (this.firstFoundUsed && this.previous?.first && !this.refused.has(obs.seq)) this.sharedAt = obs.at;
    } else if (last) {
      const own = this.ownCounted(last.seq, obs.seq);
      const others = last.remaining - obs.remaining - own;
      current.own += own;
      current.othersSigned += others;
      current.others = Math.max(0, current.othersSigned);
      current.lastOthers = Math.max(0, others);
      // used up with fewer of ours than its limit counted in it: others took the rest (keyShared)
      const usedUp = obs.limit != null && obs.remaining === 0 && current.own < obs.limit;
      if (current.others > 0 || usedUp) this.sharedAt = obs.at;
      this.intervals = [{ others: Math.max(0, others), ms: Math.max(1, obs.at - last.at) }, ...this.intervals].slice(
        0,
        2,
      );
      if (own === 1) {
        // in flight beside ours: the count over the part of the interval our request was on its way
        const onItsWay = Math.max(1, obs.at - obs.sentAt) / Math.max(1, obs.at - last.at);
        this.samples = [Math.round(Math.max(0, others) * Math.min(1, onItsWay)), ...this.samples].slice(0, SAMPLES);
        current.maxOthers = Math.max(current.maxOthers, others);
        current.counts += 1;
      }
    }
    if (obs.limit != null && obs.remaining === obs.limit - 1) current.opened = true;
    if (this.refused.has(obs.seq)) current.refusedHere = true;
    if (obs.limit != null) this.limit = obs.limit;
    this.last = obs;
  }

  /** Whether other devices used the key lately. */
  othersActive(now: number): boolean {
    return [this.current, this.previous].some((w) => w !== null && w.others > 0 && now - w.firstAt < MEMORY_MS);
  }

  /**
   * Whether an answer of the last MEMORY_MS showed others on the key: besides what othersActive
   * counts between two of our answers, a window that ran out while fewer of our requests than
   * its limit were counted in it. It decides how a device comes back after a used-up window
   * (returnAt rather than the reset + margin) and that it holds the first reset as the others
   * do (rate-window.ts). Issue 34, 16 devices starting over 3 s: a device that took a window's
   * last values after the others had finished met no other between two answers and came back
   * at the reset + 100 ms, while a refusal of that window (the late starters', 11 in window 0)
   * still made the key wait: one more request while told to wait banned the key. It costs up
   * to a second in the last window where a device met the others only that way (2 devices
   * starting over 3 s on the fake clock), and a second to a device restarted in a window it
   * used alone before.
   */
  keyShared(now: number): boolean {
    return this.othersActive(now) || (this.sharedAt !== null && now - this.sharedAt < MEMORY_MS);
  }

  /**
   * Whether the device comes back after a used-up window as a shared key's devices do (returnAt):
   * the key is shared (keyShared), or this is our first window, our first answer found it used and
   * no request of ours was refused in it (a refusal's `Retry-After` says when the key may send).
   * With the first window's room (roomUntil), devices that start late get one of its values each:
   * one that started 2.5 s late saw nothing remain and came back at the reset + 100 ms, into the
   * wait a refusal of that window still imposed (16 devices starting over 3 s, phase 900 seed 4,
   * governor-late-starters.test.ts). It costs a device alone on the key, whose first answer finds
   * the window used up by its own requests before a restart, the second once.
   */
  sharedOrFoundUsed(now: number): boolean {
    const current = this.current;
    const foundUsed = this.firstFoundUsed && current !== null && current.first && !current.refusedHere;
    return this.keyShared(now) || foundUsed;
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
   * The others' requests to hold back for (k): the most counted during one of our last
   * K_ROUND_TRIPS round trips in this window (the latest measure, so that devices whose work ran
   * out stop being counted at once), plus OTHERS_MARGIN unless we opened the window. Early in a
   * window, the devices of the last one that have not come yet will come, each with one request:
   * no fewer then, unless our first answer in the window showed that it had counted a request for
   * each of them already (Limit − 1 − Remaining ≥ devices − 1): we came late, they came before
   * us (issue 34). A device back last to the last window held back for 16 devices still to come
   * while they were out of work, stopped with 6 tasks and left the window 7 short.
   */
  inFlightOthers(now: number): number {
    const measured = this.measuredOthers();
    const current = this.current;
    if (current === null || now - current.firstAt >= JOIN_MS) return measured;
    const devices = this.devices(now);
    // come late: the window had counted a request for every other device before ours
    if (current.before >= devices - 1) return measured;
    return Math.max(measured, devices - 1 + this.margin());
  }

  /**
   * The others' requests in flight as measured over our last round trips in this window, with our
   * margin. Not those of the window before (issue 34): there the devices were all in the burst
   * (24 in flight beside ours with 16 devices), and a device back late in the last window, most
   * others out of work by then, still held back as many, stopped with 7 tasks and 10 values left:
   * a sixth window. Early in a window the joining rule holds back for the devices to come.
   */
  private measuredOthers(): number {
    const inWindow = Math.min(K_ROUND_TRIPS, this.current?.counts ?? 0);
    return Math.max(0, ...this.samples.slice(0, inWindow)) + this.margin();
  }

  private margin(): number {
    return this.current?.opened ? 0 : OTHERS_MARGIN;
  }

  /**
   * When our next request may go, given our requests in flight and our tasks still queued:
   * `now` when it may go at once. Only meaningful while others are active.
   */
  readyAt(now: number, inFlight: number, resetAt: number | null, queued: number): number {
    const last = this.last;
    const current = this.current;
    if (!last || !current || resetAt === null || resetAt <= now) return now;
    const k = this.inFlightOthers(now);
    const r = last.remaining;
    const othersAfterUs = Math.min(this.othersRate() * (now - last.at) + k, Math.max(k, r - 1));
    if (r - othersAfterUs - inFlight >= 1) return this.keepForClose(now, queued);
    // our work ends in this window: all of it fits in what we last saw remain, and it is no more
    // than half what we took in it (a middle window's crowd of closes has about as much left) or
    // a request or two (16 devices take 3–4 each in a window: one with 2 left after taking 3 in
    // the last window did not close it, the window's opener was out of work, and the 2 values
    // were left for a sixth window; issue 34, twelfth attempt)
    const finishing = queued <= r && (FINISH_FACTOR * queued <= current.own || queued <= FINISH_SMALL);
    if ((current.opened || finishing) && inFlight === 0 && r >= 1) {
      // soon after the last answer: a refusal late in a window makes the key wait as late into the next
      const quiet = Math.max(CLOSE_QUIET_MS, CLOSE_QUIET_ROUND_TRIPS * this.roundTripMs);
      const closeAt = last.at + quiet;
      if (closeAt < resetAt) return Math.max(now, closeAt);
    }
    // No second look later in the window (the old rule looked again after JOIN_MS): a refusal
    // that late makes the key wait as far into the next window, where every device coming back
    // is refused while told to wait; with 16 devices the bench got the key banned that way.
    return this.returnAt(resetAt, last.resetKey, queued + inFlight);
  }

  /**
   * The opener keeps its last tasks for the close (issue 34): the first device back in a window
   * opens it, takes most in the burst and is often the first out of work; the bench and the
   * fake-clock grid traces show the sixth window comes from windows whose opener had 5–10 tasks
   * left at its start and sent them all in the burst, while the others held back the window's
   * last values for it (8 devices, 2–15 ms: 105 of 192 runs). So an opener down to `keep()` tasks
   * holds them while the others still send (our last interval counted some): until the others,
   * at the rate our last intervals measured, will have taken what we last saw remain down to
   * what they hold back (at least KEEP_GAP_ROUND_TRIPS of our round trips, at most JOIN_MS);
   * once an answer shows the key quiet it takes what is left as before. A fixed gap of 4 round
   * trips let it send its kept tasks through a burst of 15 or more and run out before the others
   * stopped (the bench's one failing 4-device run, three sittings in a row; 12 of 192 grid runs
   * at 4 devices). While nobody else is counted in the window yet, the others are still coming
   * back: the opener holds its kept tasks until JOIN_MS after the window's first answer (at 1–4
   * ms one way, 4 devices, the device back first with 4 tasks sent them all before the others
   * came: a sixth window in 70 of 96 grid runs). Both holds only where it keeps a task per device
   * and the looks (keep() not capped at RESERVE_SHARE of the limit): they rest on its kept tasks
   * covering what the others leave. With 16 devices (a quarter of 60 is 15) it cannot, and it
   * sends them one per KEEP_GAP_ROUND_TRIPS round trips as before: holding them through the
   * joining time there ended the last window short (18 → 34 of 192 grid runs), and the bench
   * could not tell the rate hold from the fixed gap. Not in the device's first window, where
   * devices that start late come blind and are refused once it is used up: with the rule there
   * too, 4 of the 12 runs of governor-late-starters.test.ts (16 devices starting over 3 s) were
   * banned, 13–15 refused in window 1 while a refusal of window 0 still made the key wait.
   */
  private keepForClose(now: number, queued: number): number {
    const current = this.current;
    const last = this.last;
    if (!current?.opened || current.first || !last || queued > this.keep(now)) return now;
    // it keeps a task per device counted, and its looks (keep() not capped)
    const holds = this.devices(now) + KEEP_LOOKS <= this.limitShare();
    // nobody else counted in this window yet: the others are still coming back
    const joining = current.others === 0 && now - current.firstAt < JOIN_MS;
    if (joining && holds) return current.firstAt + JOIN_MS;
    const gap = Math.max(CLOSE_QUIET_MS, KEEP_GAP_ROUND_TRIPS * this.roundTripMs);
    // Nobody else counted yet is not a quiet key (issue 34, twelfth attempt): the others are still
    // coming back. An opener 20–30 ms ahead of 15 others took that for the close, sent its last
    // 11 tasks at once, had none left when they had taken the burst, and the window's last value
    // was left for a sixth window. It keeps them one per gap, as while the others send.
    if (joining) return Math.max(now, last.at + gap);
    if (current.lastOthers === 0) return now; // the key was quiet over our last interval: close
    if (!holds) return Math.max(now, last.at + gap);
    const rate = this.othersRate();
    const untilTheyHold = rate > 0 ? (last.remaining - this.inFlightOthers(now) - 1) / rate : 0;
    return Math.max(now, last.at + Math.min(JOIN_MS, Math.max(gap, untilTheyHold)));
  }

  /**
   * The tasks the opener keeps for the close: one per device counted (what the others leave is
   * about that) and KEEP_LOOKS more, at most RESERVE_SHARE of the limit.
   */
  private keep(now: number): number {
    return Math.min(this.limitShare(), this.devices(now) + KEEP_LOOKS);
  }

  /** RESERVE_SHARE of the limit: the most the opener keeps, and the most the first window change reserves. */
  private limitShare(): number {
    return Math.ceil((this.limit ?? 0) * RESERVE_SHARE);
  }

  /**
   * Until when the first window change keeps a reserve for the devices still to come back (null
   * when it does not, or no longer, applies). Issue 34: before a step between windows is known,
   * devices hold the first reset up to about two seconds apart, and nothing on the wire tells
   * them apart: a device refused in the first window holds its refusal's end, a device whose
   * first answer ever was a refusal (started late) comes back when its `Retry-After` ends, and of
   * a burst of first answers that straddled a second of the service's clock the later ones hold
   * the reset a second before the others. The first ones back took the whole window before the
   * others came (about a second later), and each of those was refused while the key was told
   * to wait: 12–14 of them with 16 devices, which bans the key (the fake-clock grid: 29 of 192
   * runs at 16 devices). So in the window after its first, a device that shares the key keeps
   * `reserve()` values unused until every other device can be back: the latest any of them can
   * hold the first reset (the header's end through our skew bound, plus the second another's
   * first answer may put it later) plus the wait they add to it (returnAt), the jitter and a
   * round trip. Kept only where the first window showed many devices (RESERVE_MIN_DEVICES), a
   * refusal of ours, or a first answer that found the window used: with fewer the ban is out
   * of reach (fewer devices come back than the service bans for) and the reserve, which the
   * opener alone takes, costs the others their share of it.
   */
  reserveUntil(now: number): number | null {
    if (this.current?.first) return this.roomUntil(now);
    const previous = this.previous;
    if (this.current === null || previous === null || !previous.first || previous.headerResetAt === null) return null;
    if (!(this.keyShared(now) || this.firstFoundBusy)) return null;
    const many = previous.maxOthers + 1 >= RESERVE_MIN_DEVICES;
    if (!(many || previous.refusedHere || this.firstFoundBusy)) return null;
    // the first window's opener, which took its room, comes back JOIN_MS after the others (returnAt)
    const roomTaker = this.roomKept(previous) ? JOIN_MS : 0;
    const until =
      this.latestReturnAt(previous.headerResetAt + FIRST_END_SPREAD_MS) + roomTaker + Math.ceil(this.roundTripMs);
    return now < until ? until : null;
  }

  /**
   * Until when the device's first window keeps its room (issue 34, eleventh attempt; null when it
   * does not, or no longer, applies): JOIN_MS after our first answer, only where the header says
   * the window lasts ROOM_TAIL_MS beyond that. A device knows nothing of the others before its
   * first answer, so its first request is blind, and the bench's 16 app cores start over 25–190 ms
   * while the first of them use the window's 60 in 24–33 ms: the 7 that came after were refused
   * there in every run (ten sittings). Below the room (reserve(), a quarter of the limit) nobody
   * sends until then but the opener, which keeps its last tasks for it and takes what is left once
   * the hold is over; the others come back after the window (reserveReadyAt). It costs the
   * devices nothing but the hold in their first window, and one that found its first window used
   * by its own requests before a restart keeps the room without an opener to take it: up to a
   * quarter of that window.
   */
  private roomUntil(now: number): number | null {
    const current = this.current;
    if (current === null || !this.roomKept(current)) return null;
    // alone so far: our answers since the first counted nobody else (a device alone on a key that
    // another used before it in the window kept the room for nobody and waited for the window's end,
    // over 30 s in the Spanish end-to-end test)
    if (current.counts > 0 && current.others === 0) return null;
    const until = current.firstAt + JOIN_MS;
    return now < until ? until : null;
  }

  /** Whether the device's first window `w` keeps the room: it lasts, by its header, ROOM_TAIL_MS beyond the hold. */
  private roomKept(w: WindowCount): boolean {
    return w.first && w.headerResetAt !== null && w.headerResetAt >= w.firstAt + JOIN_MS + ROOM_TAIL_MS;
  }

  /**
   * The values the first window change keeps for devices still to come back: one per other
   * device the most counted in one of our round trips of the first window shows, and with
   * fewer than RESERVE_MIN_COUNTS such counts (a device refused early, or started late) a
   * quarter of the limit (15 of 60: 16 devices). Not what this window shows: a device back
   * before the others counts nobody.
   */
  reserve(): number {
    const most = this.limitShare();
    // the first window's room: for devices of which nothing is known yet
    if (this.current?.first) return most;
    const first = this.previous;
    return first === null || first.counts < RESERVE_MIN_COUNTS ? most : Math.min(most, first.maxOthers + 1);
  }

  /**
   * When our next request may go as far as the first window change's reserve decides (`now`
   * when it does not hold us): below the reserve, until `reserveUntil`, nobody sends; then the
   * opener (which keeps as many tasks as the reserve for it) takes what is left, one request at
   * a time, and the others come back after the window (what they last saw remain is stale by
   * then: every device sending on it at once was refused, 5 of them in a trace). The others keep
   * one value more than the reserve for that close (OTHERS_MARGIN, as for any opener): 16 devices
   * starting over 0.2 s, seed 5, 12 devices came back to the 13 values kept, one of them took two,
   * and the opener's close was refused.
   */
  reserveReadyAt(now: number, inFlight: number, resetAt: number | null, queued: number): number {
    const last = this.last;
    const current = this.current;
    if (!last || !current || resetAt === null || resetAt <= now) return now;
    const until = this.reserveUntil(now);
    if (until === null) return now;
    const reserve = this.reserve();
    if (current.opened && queued <= reserve) return until;
    // one more than the reserve, as below the reserve: the opener's close after it (issue 34)
    if (last.remaining - inFlight - 1 >= reserve + OTHERS_MARGIN) return now;
    return current.opened && last.remaining >= 1 ? until : this.returnAt(resetAt, last.resetKey, queued + inFlight);
  }

  /**
   * When to come back to the key after the window ending at `resetAt` (local, its latest
   * possible end): not before a refusal made in it could still make the key wait, whoever made
   * it (issue 34). Devices that start late know nothing yet and are refused in a window used
   * up; every 16-device bench run has such refusals in window 0, the service counts each
   * request sent while it tells the key to wait, and one device cannot see another's refusal:
   * the devices that came back at the reset were refused (up to 16 of them) and banned the key.
   * Coming back a second after the end costs one second in the last window only (the others
   * are used up early in their first second anyway). Plus a random delay of up to
   * RESET_JITTER_MS, so that the devices do not all fire at once.
   *
   * The order of return (issue 34, twelfth attempt): the more a device still has to send
   * (`backlog`, queued or under way), the sooner it comes back: a step (orderStepMs: 4 ms on the
   * loopback, up to 10 at longer round trips) sooner per request, from RETURN_ORDER_STEPS steps
   * later for a device with nothing left down to no delay for one with 10 or more. The first device
   * back takes the most of the window and is its opener, which keeps its last tasks to close it;
   * with the eleventh attempt's rule (a device that took 2 or fewer, or had twice what it took
   * still to send, came back 20–30 ms before the others) half the devices counted as behind at the
   * end of the third window by a task either way, came back first, took 6 each and closed together
   * (6 refusals), and in the last window the first back had 1 task left, so the values the others
   * held back for the close were left for a sixth window (2 of 5 bench runs with 16 devices, the
   * service in its own process). Early in a drain every device has 10 or more to send and they come
   * back together, as before. And the first window's opener, which took the room (roomUntil), comes
   * back JOIN_MS later still: it is ahead of the others.
   */
  returnAt(resetAt: number, resetKey: string, backlog: number): number {
    const current = this.current;
    const ended = current !== null && current.resetKey === resetKey ? current : null;
    const roomTaker = ended !== null && ended.opened && this.roomKept(ended) ? JOIN_MS : 0;
    const order = this.orderStepMs() * Math.max(0, RETURN_ORDER_STEPS - backlog);
    return resetAt + CARRIED_WAIT_MS + CARRIED_MARGIN_MS + order + this.resetJitter(resetKey) + roomTaker;
  }

  /**
   * One step of the order of return (issue 34, fifteenth attempt): RETURN_ORDER_STEP_ROUND_TRIP of
   * our round trip, RETURN_ORDER_STEP_MS to RETURN_ORDER_STEP_MAX_MS. The order is kept at the
   * service only where a step outlasts the spread of the devices' one-way latencies: with 4 ms a
   * step and 2–15 ms one way (round trips of 4–30 ms), the fifth window's opener had 2–6 tasks
   * fewer than the device with the most in 11 of 20 fake-clock drains of 16 devices, and the
   * values held back for its close were left for a sixth window (the grid: 66 and 35 of 90 runs met
   * at 2–15 ms; with the step, 78 and 73). On the loopback (round trips of 1–5 ms) it is 4 ms, as
   * before; at most 10, so that a device with nothing left comes back no more than 100 ms after
   * the others (the last window's cost).
   */
  private orderStepMs(): number {
    return Math.min(
      RETURN_ORDER_STEP_MAX_MS,
      Math.max(RETURN_ORDER_STEP_MS, RETURN_ORDER_STEP_ROUND_TRIP * this.roundTripMs),
    );
  }

  /**
   * The latest any device comes back after the window ending at `resetAt`: returnAt with the largest
   * delay, its steps taken as ours (the others reach the same service over round trips like ours).
   */
  private latestReturnAt(resetAt: number): number {
    return resetAt + CARRIED_WAIT_MS + CARRIED_MARGIN_MS + this.orderStepMs() * RETURN_ORDER_STEPS + RESET_JITTER_MS;
  }

  /** The random delay after a reset, drawn once per window. */
  resetJitter(resetKey: string): number {
    if (!this.jitter || this.jitter.resetKey !== resetKey)
      this.jitter = { resetKey, ms: Math.floor(this.random() * RESET_JITTER_MS) };
    return this.jitter.ms;
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
