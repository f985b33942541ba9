/**
 * The simulation's one clock and event loop. While a day runs, the process's timers
 * (`setTimeout`, `setInterval`, `setImmediate`, `requestAnimationFrame`), `Date`,
 * `performance.now`, `Math.random` and `crypto.randomUUID` are the loop's: virtual time moves only when the loop says so, and
 * every source of chance is the day's seeded generator. Nothing else may wait on the real
 * world (the disks are in memory, the service is in-process, IPC and BroadcastChannel are the
 * world's links), so what runs between two tasks is decided by the program alone.
 *
 * The loop runs one task per real turn of Node's event loop, so that the microtasks a task
 * queued (promise continuations) all run before the next task, as in a browser or in Node.
 * Tasks go in this order: every queued immediate (FIFO), then one message of the links that
 * the fast-check scheduler picks (process idle: "I/O completions"), then the earliest timer.
 *
 * Two clocks: `mono` (monotonic, drives the timers; what `performance.now()` and a `Clock`'s
 * `monotonic()` read) and the wall clock that `Date` and the devices read, `mono + wallBase`,
 * which a clock jump moves without touching the timers or `mono` (as an operating system's clock
 * changes under `setTimeout` and `performance.now()`). The service reads its own wall clock,
 * which never jumps.
 */
import type { Scheduler } from 'fast-check';
import type { Clock } from '../../../src/shared/basics/clock';
import type { Random } from './rng';

const real = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setInterval: globalThis.setInterval,
  clearInterval: globalThis.clearInterval,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
  Date: globalThis.Date,
  random: Math.random,
  performanceNow: Object.getOwnPropertyDescriptor(globalThis.performance, 'now'),
};

/** Where the virtual time starts (the day's wall clock, and the service's). */
export const DAY_START = Date.UTC(2031, 5, 14, 8, 0, 0);

/** Something timers belong to: when it dies (a core killed), its timers never fire. */
export interface Owner {
  readonly name: string;
  dead: boolean;
}

interface Task {
  id: number;
  at: number;
  fn: () => void;
  owner: Owner | null;
  /** Milliseconds between runs, for an interval. */
  every: number | null;
}

/** A handle with the methods code may call on Node's timer objects. */
class Handle {
  constructor(readonly id: number) {}
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
  refresh(): this {
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

function idOf(handle: unknown): number | null {
  if (handle instanceof Handle) return handle.id;
  return typeof handle === 'number' ? handle : null;
}

/** The loop gave up: a task kept queueing tasks without end (a livelock in the code under test). */
export class LoopStuck extends Error {
  override name = 'LoopStuck';
}

export class SimLoop {
  mono = 0;
  /** wall = mono + wallBase; a clock jump changes it. */
  wallBase = DAY_START;
  readonly serviceBase = DAY_START;
  /** Tasks run so far (for the figures). */
  tasksRun = 0;
  #seq = 0;
  readonly #immediates: Task[] = [];
  readonly #timers = new Map<number, Task>();
  #installed = false;
  #running = false;

  constructor(
    readonly random: Random,
    readonly scheduler: Scheduler,
  ) {}

  /** The wall clock of the devices (what `Date.now()` says). */
  now(): number {
    return this.mono + this.wallBase;
  }

  /** The service's own clock (never jumps). */
  serviceNow(): number {
    return this.mono + this.serviceBase;
  }

  /** The devices' wall clock jumps (forward or back); timers keep their monotonic due times. */
  jump(ms: number): void {
    this.wallBase += ms;
  }

  setTimeout(fn: () => void, ms: number, owner: Owner | null = null): Handle {
    const id = ++this.#seq;
    this.#timers.set(id, { id, at: this.mono + Math.max(0, ms), fn, owner, every: null });
    return new Handle(id);
  }

  setInterval(fn: () => void, ms: number, owner: Owner | null = null): Handle {
    const id = ++this.#seq;
    const every = Math.max(1, ms);
    this.#timers.set(id, { id, at: this.mono + every, fn, owner, every });
    return new Handle(id);
  }

  clearTimeout(handle: unknown): void {
    const id = idOf(handle);
    if (id !== null) this.#timers.delete(id);
  }

  setImmediate(fn: () => void, owner: Owner | null = null): Handle {
    const id = ++this.#seq;
    this.#immediates.push({ id, at: this.mono, fn, owner, every: null });
    return new Handle(id);
  }

  clearImmediate(handle: unknown): void {
    const id = idOf(handle);
    const index = this.#immediates.findIndex((task) => task.id === id);
    if (index >= 0) this.#immediates.splice(index, 1);
  }

  /** A clock of the app's `Clock` interface over this loop, whose timers die with `owner`. */
  clockFor(owner: Owner | null): Clock {
    return {
      now: () => this.now(),
      monotonic: () => this.mono,
      setTimeout: (fn, ms) => this.setTimeout(fn, ms, owner),
      clearTimeout: (handle) => this.clearTimeout(handle),
    };
  }

  /**
   * Hands `deliver` to the fast-check scheduler: it runs when the scheduler releases it, at
   * the current virtual time, in the order the scheduler picks among everything waiting.
   */
  deliver(label: string, deliver: () => void): void {
    void this.scheduler.schedule(Promise.resolve(), label).then(deliver);
  }

  /** Whether anything is pending now (immediates or scheduled messages). */
  get busy(): boolean {
    return this.#immediates.length > 0 || this.scheduler.count() > 0;
  }

  /** The due time of the next live timer, or null. */
  nextTimerAt(): number | null {
    let next: number | null = null;
    for (const timer of this.#timers.values()) if (next === null || timer.at < next) next = timer.at;
    return next;
  }

  /**
   * Runs the world until virtual time reaches `until` (monotonic) and nothing is due then.
   * Returns early when `stop()` says so after a task.
   */
  async runUntil(until: number, stop: () => boolean = () => false): Promise<void> {
    if (this.#running) throw new Error('the loop is already running');
    this.#running = true;
    try {
      let burst = 0;
      for (;;) {
        await new Promise<void>((resolve) => real.setImmediate(resolve));
        if (stop()) return;
        const immediate = this.#immediates.shift();
        if (immediate) {
          burst += 1;
          if (burst > 2_000_000) throw new LoopStuck(`more than 2,000,000 tasks at ${this.mono} ms without a pause`);
          this.#run(immediate);
          continue;
        }
        if (this.scheduler.count() > 0) {
          burst += 1;
          await this.scheduler.waitOne();
          continue;
        }
        const timer = this.#earliest(until);
        if (!timer) {
          this.mono = Math.max(this.mono, until);
          return;
        }
        burst = 0;
        this.mono = Math.max(this.mono, timer.at);
        if (timer.every !== null) timer.at = this.mono + timer.every;
        else this.#timers.delete(timer.id);
        this.#run(timer);
      }
    } finally {
      this.#running = false;
    }
  }

  /** Runs `ms` of virtual time. */
  advance(ms: number): Promise<void> {
    return this.runUntil(this.mono + ms);
  }

  /**
   * Runs until nothing is pending and no timer is due within `quietMs` (the browser's and
   * Dexie's zero-delay timers, a live query's read after a change): a moment where what the
   * stores hold is what they will show.
   */
  async settle(quietMs = 20): Promise<void> {
    for (let rounds = 0; ; rounds += 1) {
      if (rounds > 10_000) throw new LoopStuck('the world never settles (a timer re-armed within 20 ms for ever)');
      await this.runUntil(this.mono);
      const next = this.nextTimerAt();
      if (next === null || next > this.mono + quietMs) return;
      await this.runUntil(next);
    }
  }

  /** Runs until `promise` settles (or `limitMs` of virtual time pass: then null). */
  async until<T>(promise: Promise<T>, limitMs: number): Promise<{ value: T } | null> {
    let outcome: { value: T } | { error: unknown } | null = null;
    promise.then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    await this.runUntil(this.mono + limitMs, () => outcome !== null);
    const done = outcome as { value: T } | { error: unknown } | null;
    if (done && 'error' in done) throw done.error;
    return done;
  }

  #earliest(until: number): Task | null {
    let next: Task | null = null;
    for (const timer of this.#timers.values()) {
      if (timer.owner?.dead) {
        this.#timers.delete(timer.id);
        continue;
      }
      if (timer.at <= until && (!next || timer.at < next.at || (timer.at === next.at && timer.id < next.id)))
        next = timer;
    }
    return next;
  }

  #run(task: Task): void {
    if (task.owner?.dead) return;
    this.tasksRun += 1;
    task.fn();
  }

  /** Makes the process's timers, clock and chance this loop's (until `uninstall`). */
  install(uuid: () => string): void {
    if (this.#installed) return;
    this.#installed = true;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const loop = this;
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = (fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) =>
      loop.setTimeout(() => fn(...args), Math.max(1, Number(ms) || 0));
    g.clearTimeout = (handle: unknown) => loop.clearTimeout(handle);
    g.setInterval = (fn: (...args: unknown[]) => void, ms = 0, ...args: unknown[]) =>
      loop.setInterval(() => fn(...args), Number(ms) || 0);
    g.clearInterval = (handle: unknown) => loop.clearTimeout(handle);
    g.setImmediate = (fn: (...args: unknown[]) => void, ...args: unknown[]) => loop.setImmediate(() => fn(...args));
    g.clearImmediate = (handle: unknown) => loop.clearImmediate(handle);
    g.requestAnimationFrame = (fn: (at: number) => void) => loop.setTimeout(() => fn(loop.mono), 16);
    g.cancelAnimationFrame = (handle: unknown) => loop.clearTimeout(handle);
    const RealDate = real.Date;
    class SimDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(loop.now());
        else super(...(args as [number]));
      }
      static override now(): number {
        return loop.now();
      }
    }
    g.Date = SimDate;
    // the elapsed time of the window's `systemClock` (its waits); an own property over the prototype's
    Object.defineProperty(globalThis.performance, 'now', {
      value: () => loop.mono,
      configurable: true,
      writable: true,
    });
    Math.random = () => loop.random();
    (globalThis.crypto as unknown as { randomUUID: () => string }).randomUUID = uuid;
  }

  uninstall(): void {
    if (!this.#installed) return;
    this.#installed = false;
    const g = globalThis as unknown as Record<string, unknown>;
    g.setTimeout = real.setTimeout;
    g.clearTimeout = real.clearTimeout;
    g.setInterval = real.setInterval;
    g.clearInterval = real.clearInterval;
    g.setImmediate = real.setImmediate;
    g.clearImmediate = real.clearImmediate;
    delete g.requestAnimationFrame;
    delete g.cancelAnimationFrame;
    g.Date = real.Date;
    if (real.performanceNow) Object.defineProperty(globalThis.performance, 'now', real.performanceNow);
    else delete (globalThis.performance as unknown as { now?: unknown }).now;
    Math.random = real.random;
    delete (globalThis.crypto as unknown as { randomUUID?: unknown }).randomUUID;
  }
}
