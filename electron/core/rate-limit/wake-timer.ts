/** One timer on the injected clock that wakes its owner at a given time, re-armed only when that time changes. */
import type { Clock } from '../../../src/shared/basics/clock';

export class WakeTimer {
  private timer: { handle: unknown; at: number } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void,
  ) {}

  /** Wakes at `at` (on the clock `now` was read from: the governor's elapsed time), or never for null; replaces any other wake-up. */
  set(at: number | null, now: number): void {
    if (this.timer && (at === null || this.timer.at !== at)) this.clear();
    if (at === null || this.timer) return;
    const handle = this.clock.setTimeout(() => {
      this.timer = null;
      this.wake();
    }, at - now);
    this.timer = { handle, at };
  }

  clear(): void {
    if (this.timer) this.clock.clearTimeout(this.timer.handle);
    this.timer = null;
  }
}
