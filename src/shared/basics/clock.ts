/**
 * The app's one source of time, declared once for the core (`electron/core`) and the
 * renderer's data layer (`src/data`): `now()` and timers. Production passes `systemClock`;
 * tests pass the fake clock of `test/support/fake-clock.ts`, which moves only when a test
 * says so, so no test ever sleeps. Code that only reads the time takes `Pick<Clock, 'now'>`.
 */
export interface Clock {
  /** Local epoch milliseconds. */
  now(): number;
  /** Runs `fn` once after `ms` (a negative `ms` counts as 0); the handle is for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): unknown;
  /** Cancels a timer `setTimeout` returned; an unknown or fired handle is ignored. */
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now()` and the global timers (the same in Node and the browser). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};
