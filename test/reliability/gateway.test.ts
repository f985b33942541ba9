/**
 * Issue 11.5: the app's real request path (governor + service client, real clock) behind a real
 * nginx gateway (test/support/nginx.ts) that hides the rate headers and refuses with a bare 429,
 * a bare 503 or a 429 with Retry-After. The gateway allows 40 requests a minute (stricter than
 * the Free plan's pace the governor starts at), so it refuses, and the governor must learn.
 * From nginx's access log: after the first refusal, never two requests closer than the learned
 * pace allows, and few refusals; from the service's log: every creation exactly once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DECREASE, FLOOR_PLAN_RATE } from '../../electron/core/rate-limit/adaptive-rate';
import { RateLimitGovernor } from '../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../electron/core/service/service-client';
import { systemClock } from '../../src/shared/basics/clock';
import { readRequestLog, startService } from '../service/index';
import { GATEWAY_MODES, type GatewayMode, nginxAvailable, startGateway } from '../support/nginx';

const CREATIONS = 15;
/**
 * After a cut, the pace is at most the first cut's: 1 / (0.7 per s) ≈ 1.43 s between requests,
 * less 100 ms for a request that left this (shared, busy) machine late and the next on time.
 */
const MIN_GAP_MS = 1000 / (FLOOR_PLAN_RATE * DECREASE) - 100;

async function drainThroughGateway(mode: GatewayMode) {
  const dir = await mkdtemp(join(tmpdir(), `adoption-gateway-${mode}-`));
  const key = `gateway-${mode}-${crypto.randomUUID()}`;
  const logFile = join(dir, 'service.log');
  // a Pro key: the gateway, not the service, is the limit here
  const service = await startService({ keys: { [key]: 'pro' }, logFile });
  const gateway = await startGateway({ upstream: service.url, mode, rate: '40r/m', burst: 2, retryAfterSeconds: 3 });
  const governor = new RateLimitGovernor({ profileId: mode, clock: systemClock });
  const client = createServiceClient({
    fetch,
    baseUrl: gateway.url,
    getKey: async () => key,
    governor,
    clock: systemClock,
    profileId: mode,
  });
  try {
    // as the outbox does: one creation at a time, sent again with its key until created
    for (let i = 0; i < CREATIONS; i += 1) {
      const idempotencyKey = crypto.randomUUID();
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const result = await client.createPet({ name: `Gateway ${mode} ${i}`, categoryId: '1' }, idempotencyKey);
        if (result.ok) break;
      }
    }
    return { access: await gateway.readAccessLog(), service: await readRequestLog(logFile) };
  } finally {
    governor.dispose();
    await gateway.stop();
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(!nginxAvailable())('behind a real nginx gateway', () => {
  it.concurrent.each(GATEWAY_MODES)(
    '%s: learns the pace, no burst after the first refusal, every creation exactly once',
    async (mode) => {
      const { access, service } = await drainThroughGateway(mode);
      const refusals = access.filter((line) => line.status === 429 || line.status === 503);
      const created = service.filter((line) => line.createdId !== null);
      const first = access.findIndex((line) => line.status === 429 || line.status === 503);
      // when each request reached nginx (the log line is written when its answer went back)
      const arrivals = access.slice(first).map((line) => line.startedAt);
      const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
      console.log(
        `gateway ${mode}: ${access.length} requests, ${refusals.length} refused, ${created.length} created; ` +
          `smallest gap after the first refusal ${Math.min(...gaps)} ms`,
      );
      expect(created).toHaveLength(CREATIONS);
      expect(new Set(created.map((line) => line.idempotencyKey)).size).toBe(CREATIONS);
      expect(first).toBeGreaterThan(-1);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(MIN_GAP_MS);
      expect(refusals.length).toBeLessThanOrEqual(4);
    },
    120_000,
  );
});

if (!nginxAvailable())
  console.log('gateway reliability tests skipped: nginx is not installed (apt-get install -y nginx)');
