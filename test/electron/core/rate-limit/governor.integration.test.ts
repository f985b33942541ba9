/**
 * The governor against the local service over real HTTP, with a 1-second "minute" so the
 * real pacing takes about two seconds. Figures are printed for the report.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../../electron/core/service/service-client';
import { systemClock } from '../../../../src/shared/basics/clock';
import type { DiagnosticEntry } from '../../../../src/shared/app-api/diagnostics';
import { readRequestLog, type RunningService, startService } from '../../../service/index';

const KEY = 'integration-key-0001';
let service: RunningService | null = null;
let folder: string | null = null;

afterEach(async () => {
  await service?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
  service = null;
  folder = null;
});

async function start(plan: string) {
  folder = await mkdtemp(join(tmpdir(), 'governor-integration-'));
  const logFile = join(folder, 'requests.jsonl');
  service = await startService({ keys: { [KEY]: plan }, minuteMs: 1000, logFile, seedAnimals: 30 });
  const entries: DiagnosticEntry[] = [];
  const governor = new RateLimitGovernor({ profileId: 'integration', clock: systemClock });
  const client = createServiceClient({
    fetch,
    baseUrl: service.url,
    getKey: async () => KEY,
    governor,
    clock: systemClock,
    profileId: 'integration',
    onRequest: (entry) => entries.push(entry),
  });
  return { client, governor, entries, logFile, url: service.url };
}

const distinctQuery = (i: number) => ({ limit: 1 + (i % 100), ...(i >= 100 ? { status: 'available' as const } : {}) });

describe('governor against the local service', () => {
  it('sends 120 requests through a 60-per-window plan with zero 429s and nothing during a wait', async () => {
    const { client, entries, logFile } = await start('enterprise:60:100000');
    const started = Date.now();
    // 120 different reads (identical ones would be shared: read-sharing.ts)
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => client.listPets(distinctQuery(i))));
    const seconds = (Date.now() - started) / 1000;
    const log = await readRequestLog(logFile);
    const tooMany = entries.filter((entry) => entry.status === 429).length;
    const duringWaits = log.filter((line) => line.toldToWait).length;
    console.log(
      `governor integration: 120 requests, ${tooMany} × 429, ${duringWaits} sent during waits, ` +
        `${log.length} requests logged, ${seconds.toFixed(1)} s`,
    );
    expect(results.filter((result) => result.ok)).toHaveLength(120);
    expect(tooMany).toBe(0);
    expect(log.filter((line) => line.status === 429)).toHaveLength(0);
    expect(duringWaits).toBe(0);
    expect(log).toHaveLength(120);
    expect(seconds).toBeGreaterThan(0.5);
  }, 20_000);

  it('after a window used up by someone else, takes one 429 and sends nothing until Retry-After', async () => {
    const { client, logFile, url } = await start('enterprise:60:100000');
    const raw = await Promise.all(
      Array.from({ length: 60 }, () => fetch(`${url}/pets?limit=1`, { headers: { Authorization: `Bearer ${KEY}` } })),
    );
    expect(raw.every((response) => response.status === 200)).toBe(true);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => client.listPets(distinctQuery(i))));
    const log = await readRequestLog(logFile);
    const ours = log.slice(60);
    const tooMany = ours.filter((line) => line.status === 429).length;
    const duringWaits = ours.filter((line) => line.toldToWait).length;
    console.log(
      `governor integration (window used up elsewhere): 20 requests, ${tooMany} × 429, ${duringWaits} sent during waits`,
    );
    expect(results.filter((result) => result.ok)).toHaveLength(20);
    expect(tooMany).toBeLessThanOrEqual(1);
    expect(duringWaits).toBe(0);
  }, 20_000);
});
