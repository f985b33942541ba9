/**
 * The app's one source of time, declared once for the core (`electron/core`) and the
 * renderer's data layer (`src/data`): the wall clock, elapsed time and timers. Production
 * passes `systemClock`; tests pass the fake clock of `test/support/fake-clock.ts`, which moves
 * only when a test says so, so no test ever sleeps. Code that only reads the time takes
 * `Pick<Clock, 'now'>`.
 *
 * Two readings, because a computer's clock is set back and forward under a running app (NTP at
 * an event, staff fixing the time): every wait, deadline and duration is measured on
 * `monotonic()`; `now()` only for a time shown to staff, stored, or compared with another
 * machine's date (a service's `Date`, `X-RateLimit-Reset`, an HTTP-date `Retry-After`: convert
 * those to a deadline on `monotonic()` once, on receipt). A `monotonic()` reading means nothing
 * outside the process (window) that took it: never store it or send it to another.
 */
export interface Clock {
  /** Local epoch milliseconds (the wall clock: it may jump back or forward). */
  now(): number;
  /**
   * Milliseconds elapsed since an arbitrary origin of this process: never goes back, unmoved
   * when the wall clock is set (`performance.now()`).
   */
  monotonic(): number;
  /** Runs `fn` once after `ms` (a negative `ms` counts as 0); the handle is for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer `setTimeout` returned; an unknown or fired handle is ignored. */
  clearTimeout(handle: unknown): void;
}

/**
 * The real clock: `Date.now()`, `performance.now()` and the global timers (the same in Node and
 * the browser; both timers and `performance.now()` run on elapsed time, not the wall clock).
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => globalThis.performance.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
