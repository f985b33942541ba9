/**
 * The one fake clock of the tests: time moves only when a test says so, and timers fire in
 * order of their due time (then of creation). Nothing sleeps.
 *
 * Two readings, as on a real computer: the elapsed (monotonic) time, which drives the timers and
 * only moves forward, and the wall clock (`now()`), which `jump(ms)` sets back or forward without
 * moving the elapsed time (NTP correcting the clock at an event). They start equal.
 * - `advance(ms)` fires the due timers synchronously (for code whose timers only schedule
 *   more timers, like the sync engine's passes);
 * - `advanceAndSettle(ms)` lets pending promise chains run before and between the timers, for
 *   code that awaits between timers (the core's governor and HTTP client).
 */
import type { Clock } from '../../src/shared/basics/clock';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  /** The elapsed time (monotonic): what the timers are due on. */
  private time: number;
  /** wall = time + wallOffset; only `jump` changes it. */
  private wallOffset = 0;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  constructor(start = Date.UTC(2030, 0, 15, 12, 0, 0)) {
    this.time = start;
  }

  now(): number {
    return this.time + this.wallOffset;
  }

  monotonic(): number {
    return this.time;
  }

  /** The wall clock is set forward (`ms` > 0) or back; elapsed time and the timers do not move. */
  jump(ms: number): void {
    this.wallOffset += ms;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + Math.max(0, ms), seq: id, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** The due times of the timers still waiting, earliest first, on the monotonic clock (`monotonic()`). */
  pendingTimers(): number[] {
    return [...this.timers.values()].map((timer) => timer.at).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order, synchronously. */
  advance(ms: number): void {
    const target = this.time + ms;
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) this.fire(timer);
    this.time = target;
  }

  /** Lets every pending promise chain run (a few macrotask turns, no time passes). */
  async flush(): Promise<void> {
    for (let i = 0; i < 5; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Moves time forward by `ms` like `advance`, letting promises settle before, between and after the timers. */
  async advanceAndSettle(ms: number): Promise<void> {
    const target = this.time + ms;
    await this.flush();
    for (let timer = this.nextDue(target); timer; timer = this.nextDue(target)) {
      this.fire(timer);
      await this.flush();
    }
    this.time = target;
    await this.flush();
  }

  /** Moves to an absolute wall-clock time (see `advanceAndSettle`). */
  async advanceAndSettleTo(at: number): Promise<void> {
    await this.advanceAndSettle(Math.max(0, at - this.now()));
  }

  private nextDue(target: number): Timer | undefined {
    let next: Timer | undefined;
    for (const timer of this.timers.values())
      if (timer.at <= target && (!next || timer.at < next.at || (timer.at === next.at && timer.seq < next.seq)))
        next = timer;
    return next;
  }

  private fire(timer: Timer): void {
    this.timers.delete(timer.seq);
    this.time = Math.max(this.time, timer.at);
    timer.fn();
  }
}
