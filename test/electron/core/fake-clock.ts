/**
 * A manual clock for core tests: time moves only through `advance`, which runs every timer
 * that falls due in order and lets pending promises settle between them. Nothing sleeps.
 */
import type { Clock } from '../../../electron/core/clock';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  private time: number;
  private seq = 0;
  private readonly timers = new Map<number, Timer>();

  constructor(start = Date.UTC(2030, 0, 15, 12, 0, 0)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + Math.max(0, ms), seq: id, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Number of timers still waiting. */
  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Lets every pending promise chain run (a few macrotask turns, no time passes). */
  async flush(): Promise<void> {
    for (let i = 0; i < 5; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  }

  /** Moves time forward by `ms`, running due timers in order, settling promises between them. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await this.flush();
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= target)
        .sort(([, a], [, b]) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      const [id, timer] = due;
      this.timers.delete(id);
      this.time = Math.max(this.time, timer.at);
      timer.fn();
      await this.flush();
    }
    this.time = target;
    await this.flush();
  }

  /** Moves to an absolute time (see `advance`). */
  async advanceTo(at: number): Promise<void> {
    await this.advance(Math.max(0, at - this.time));
  }
}
