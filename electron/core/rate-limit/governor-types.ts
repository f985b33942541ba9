/** The types of the rate-limit governor's scheduling API (see governor.ts). */
import type { Clock } from '../../../src/shared/basics/clock';
import type { HeaderSource } from './rate-limit-headers';
import type { TaskKind } from './task-queue';

export type { TaskKind } from './task-queue';

/** How one attempt ended, as far as scheduling is concerned. */
export type AttemptOutcome = 'ok' | 'rate_limited' | 'banned' | 'transient' | 'final';

export interface AttemptReport<T> {
  value: T;
  outcome: AttemptOutcome;
  /** Response headers; null when no response came. */
  headers: HeaderSource | null;
}

export interface ScheduleOptions {
  /** May the task be sent again? GETs yes; a POST only with its Idempotency-Key. */
  retryable: boolean;
  signal?: AbortSignal;
}

export interface GovernorOptions {
  profileId: string;
  clock: Clock;
  random?: () => number;
  maxInFlight?: number;
  maxRetries?: number;
  /** Waited beyond a reset time, because `X-RateLimit-Reset` has whole seconds. */
  resetMarginMs?: number;
  /** Requests per second assumed while the service tells no limit (default 1: the Free plan). */
  assumedRate?: number;
}

/** Rejection of a task cancelled by its signal before it was sent. */
export class QueueCancelledError extends Error {
  constructor() {
    super('The request was cancelled before it was sent.');
    this.name = 'QueueCancelledError';
  }
}

export interface GovernorTaskEntry {
  kind: TaskKind;
  /** Attempts made so far. */
  attempt: number;
  notBefore: number;
  run: (attempt: number) => Promise<AttemptReport<unknown>>;
  retryable: boolean;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  detach?: () => void;
}

/**
 * A queue entry for `task`, settling `resolve`/`reject`; with a signal, an abort while queued
 * calls `onAbort(entry)`, which answers whether the entry was still queued (then it is cancelled).
 */
export function createEntry(
  kind: TaskKind,
  task: (attempt: number) => Promise<AttemptReport<unknown>>,
  options: ScheduleOptions,
  settle: { resolve: (value: unknown) => void; reject: (reason: unknown) => void },
  onAbort: (entry: GovernorTaskEntry) => boolean,
): GovernorTaskEntry {
  const entry: GovernorTaskEntry = {
    kind,
    attempt: 0,
    notBefore: 0,
    run: task,
    retryable: options.retryable,
    ...settle,
  };
  const signal = options.signal;
  if (signal) {
    const abort = (): void => {
      if (onAbort(entry)) entry.reject(new QueueCancelledError());
    };
    signal.addEventListener('abort', abort, { once: true });
    entry.signal = signal;
    entry.detach = () => signal.removeEventListener('abort', abort);
  }
  return entry;
}
