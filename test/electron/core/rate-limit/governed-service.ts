/**
 * A scripted stand-in for the service behind a governor, for governor unit tests: every
 * task records when it went out and answers what the script says, after an optional
 * fake-clock latency, or waits until the test releases it.
 */
import type {
  AttemptOutcome,
  AttemptReport,
  RateLimitGovernor,
  TaskKind,
} from '../../../../electron/core/rate-limit/governor';
import type { FakeClock } from '../../../support/fake-clock';
import { rateHeaders } from '../fake-fetch';

export interface Reply {
  status: number | null;
  headers?: Record<string, string>;
  outcome?: AttemptOutcome;
}

export interface Sent {
  at: number;
  label: string;
  attempt: number;
}

export function outcomeOf(status: number | null): AttemptOutcome {
  // a 503 is a refusal like a 429 (response-mapping.ts)
  if (status === 429 || status === 503) return 'rate_limited';
  if (status === null || status >= 500) return 'transient';
  return status < 400 ? 'ok' : 'final';
}

export class GovernedService {
  readonly sent: Sent[] = [];
  private inFlightNow = 0;
  maxInFlightSeen = 0;
  private readonly held: Array<() => void> = [];

  constructor(
    private readonly governor: RateLimitGovernor,
    private readonly clock: FakeClock,
    /** Answers the n-th request (0-based, across all tasks). */
    private readonly script: (index: number, label: string) => Reply,
    private readonly latencyMs = 0,
    /**
     * false (default): like the service (interface.md), an answer that is not a refusal
     * carries rate headers (plenty remaining) unless the script gives its own; true: like a
     * gateway that hides them, only what the script gives.
     */
    private readonly headerless = false,
  ) {}

  /** When set, responses wait for `release()` instead of the latency. */
  hold = false;

  call(kind: TaskKind, label: string, retryable = true, signal?: AbortSignal): Promise<string> {
    return this.governor.schedule<string>(
      kind,
      async (attempt) => {
        const index = this.sent.length;
        this.sent.push({ at: this.clock.now(), label, attempt });
        this.inFlightNow += 1;
        this.maxInFlightSeen = Math.max(this.maxInFlightSeen, this.inFlightNow);
        const reply = this.script(index, label);
        await new Promise<void>((resolve) => {
          if (this.hold) this.held.push(resolve);
          else if (this.latencyMs > 0) this.clock.setTimeout(resolve, this.latencyMs);
          else resolve();
        });
        this.inFlightNow -= 1;
        const report: AttemptReport<string> = {
          value: `${label}:${reply.status ?? 'network'}`,
          outcome: reply.outcome ?? outcomeOf(reply.status),
          headers: reply.status === null ? null : new Headers(this.headersOf(reply)),
        };
        return report;
      },
      { retryable, ...(signal ? { signal } : {}) },
    );
  }

  private headersOf(reply: Reply): Record<string, string> {
    const given = reply.headers ?? {};
    const refusal = reply.status === 429 || reply.status === 503 || reply.outcome === 'banned';
    if (this.headerless || refusal || 'X-RateLimit-Remaining' in given) return given;
    return { ...rateHeaders(this.clock.now(), 1000, 999, 60_000), ...given };
  }

  /** Lets every held response arrive. */
  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }

  sentBetween(from: number, to: number): Sent[] {
    return this.sent.filter((entry) => entry.at > from && entry.at < to);
  }
}
