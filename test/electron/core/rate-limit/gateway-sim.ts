/**
 * A gateway like nginx's `limit_req` (a leaky bucket: `rate` per second, `burst` extra requests
 * served at once, refusals not counted), in front of a service that answers every request,
 * on a fake clock: the governor and service client of one profile send `creations` POSTs (and
 * optionally reads) through it. The rate headers are hidden as a gateway may hide them; the
 * refusal is a bare 429, a bare 503, or a 429 with `Retry-After`. Used by the AIMD unit tests.
 */
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../../electron/core/service/service-client';
import { mulberry32 } from '../../../service/prng';
import { FakeClock } from '../../../support/fake-clock';

export type SimGatewayMode = '429' | '503' | '429-retry-after';

export interface GatewaySimOptions {
  mode: SimGatewayMode;
  /** Requests per second. */
  rate: number;
  burst: number;
  creations: number;
  retryAfterSeconds?: number;
  seed?: number;
}

export interface GatewaySimLine {
  at: number;
  status: number;
  method: string;
}

export interface GatewaySimReport {
  lines: GatewaySimLine[];
  /** When the last creation was answered, ms from the start. */
  drainMs: number;
  created: number;
  refused: number;
  /** How many creations the client reported done (201). */
  succeeded: number;
}

/**
 * nginx's limit_req (ngx_http_limit_req_lookup) in milli-requests: a request sets
 * excess = max(0, excess − rate × elapsed ms + 1000) and is refused (excess unchanged) when
 * that is over burst × 1000; the first request of a key starts at 0.
 */
class LeakyBucket {
  private excess = 0;
  private last: number | null = null;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {}

  admit(now: number): boolean {
    if (this.last === null) {
      this.last = now;
      return true;
    }
    const excess = Math.max(0, this.excess - this.rate * (now - this.last) + 1000);
    if (excess > this.burst * 1000) return false;
    this.excess = excess;
    this.last = now;
    return true;
  }
}

export async function simulateGateway(options: GatewaySimOptions): Promise<GatewaySimReport> {
  const clock = new FakeClock();
  const start = clock.now();
  const random = mulberry32(options.seed ?? 1);
  const bucket = new LeakyBucket(options.rate, options.burst);
  const lines: GatewaySimLine[] = [];
  let created = 0;
  const simFetch = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
    await wait(clock, 1 + Math.floor(random() * 3));
    const method = init.method ?? 'GET';
    const admitted = bucket.admit(clock.now());
    const headers: Record<string, string> = { Date: new Date(clock.now()).toUTCString() };
    let status = method === 'POST' ? 201 : 200;
    let body = method === 'POST' ? JSON.stringify({ id: created + 1, name: 'Sim', categoryId: 1 }) : '[]';
    if (!admitted) {
      status = options.mode === '503' ? 503 : 429;
      body = `<html><body>${status}</body></html>`;
      headers['Content-Type'] = 'text/html';
      if (options.mode === '429-retry-after') headers['Retry-After'] = String(options.retryAfterSeconds ?? 30);
    } else {
      headers['Content-Type'] = 'application/json';
      if (method === 'POST') created += 1;
    }
    lines.push({ at: clock.now() - start, status, method });
    await wait(clock, 1 + Math.floor(random() * 3));
    return new Response(body, { status, headers });
  }) as typeof fetch;
  const governor = new RateLimitGovernor({ profileId: 'gw', clock, random: mulberry32((options.seed ?? 1) + 7) });
  const client = createServiceClient({
    fetch: simFetch,
    baseUrl: 'http://gateway.invalid/v1',
    getKey: async () => 'key',
    governor,
    clock,
    profileId: 'gw',
  });
  let finishedAt = start;
  let succeeded = 0;
  let done = false;
  // the outbox sends one creation at a time, and sends it again (same key) until it is created
  const drain = (async () => {
    for (let i = 0; i < options.creations; i += 1) {
      for (;;) {
        const result = await client.createPet({ name: `Gw ${i}`, categoryId: '1' }, `gw-${i}`);
        if (result.ok) break;
      }
      succeeded += 1;
      finishedAt = clock.now();
    }
    done = true;
  })();
  const deadline = start + 60 * 60_000;
  while (!done && clock.now() < deadline) await clock.advanceAndSettle(10);
  await drain;
  governor.dispose();
  const refused = lines.filter((line) => line.status === 429 || line.status === 503).length;
  return { lines, drainMs: finishedAt - start, created, refused, succeeded };
}

/** The most requests the gateway saw within any `spanMs`, from `from` on. */
export function busiestSpan(lines: readonly GatewaySimLine[], spanMs: number, from = 0): number {
  const times = lines.filter((line) => line.at >= from).map((line) => line.at);
  let best = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while ((times[i] ?? 0) - (times[j] ?? 0) >= spanMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

function wait(clock: FakeClock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
