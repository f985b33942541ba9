/**
 * Cost of the core (issue 7, bench 3): one `listPets` (limit 20) through the router
 * (`core.router.handle` → zod input → governor → HTTP client → codec → zod output) against a
 * bare `fetch` + `JSON.parse` of the same URL, both to the local service on loopback, in the
 * same process, sequentially, the two alternating. The key's plan is huge, so the governor never paces.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAppCore } from '../../electron/core/app-core';
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { MemorySecretStore } from '../../electron/core/keys/memory-secret-store';
import { startService } from '../service/index';
import type { Bench, BenchResult } from './lib/report';
import { summarize } from './lib/stats';

const ROOT = resolve(import.meta.dirname, '../..');
const CALLS = 500;
const WARM_UP = 50;
const KEY = 'bench-core-cost';
const PROFILE = 'local';

async function timed(call: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

/** Alternates the two calls (swapping which goes first each round), so drift hits both alike. */
async function timePairs(count: number, a: () => Promise<void>, b: () => Promise<void>): Promise<[number[], number[]]> {
  const samplesA: number[] = [];
  const samplesB: number[] = [];
  for (let i = 0; i < count; i += 1) {
    if (i % 2 === 0) {
      samplesA.push(await timed(a));
      samplesB.push(await timed(b));
    } else {
      samplesB.push(await timed(b));
      samplesA.push(await timed(a));
    }
  }
  return [samplesA, samplesB];
}

export async function benchCoreCost(): Promise<BenchResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adoption-bench-core-'));
  const service = await startService({ keys: { [KEY]: 'enterprise:100000000:1000000000' }, seedAnimals: 200 });
  const secretStore = new MemorySecretStore();
  await storeBoundKey(secretStore, PROFILE, service.url, KEY);
  const core = await createAppCore({
    fetch: globalThis.fetch,
    dataDir,
    secretStore,
    builtIns: { file: join(ROOT, 'resources', 'profiles.json') },
    localDemoUrl: service.url,
  });
  try {
    const url = `${service.url}/pets?limit=20`;
    const bare = async (): Promise<void> => {
      const response = await fetch(url, { headers: { Authorization: `Bearer ${KEY}` } });
      const animals = JSON.parse(await response.text()) as unknown[];
      if (!response.ok || animals.length !== 20) throw new Error(`bare fetch answered ${response.status}`);
    };
    const routed = async (): Promise<void> => {
      const result = await core.router.handle('listPets', { profileId: PROFILE, query: { limit: 20 } });
      if (!result.ok) throw new Error(`listPets through the router failed: ${result.error.code}`);
    };
    await timePairs(WARM_UP, bare, routed);
    const [bareSamples, coreSamples] = await timePairs(CALLS, bare, routed);
    const bareMs = summarize(bareSamples);
    const coreMs = summarize(coreSamples);
    const us = (ms: number) => Math.round(ms * 1000);
    return {
      name: 'core-cost',
      description: 'listPets (limit 20) through the router vs a bare fetch + JSON.parse, per call, loopback',
      figures: {
        coreMeanUs: us(coreMs.mean),
        coreP50Us: us(coreMs.p50),
        coreP95Us: us(coreMs.p95),
        bareMeanUs: us(bareMs.mean),
        bareP50Us: us(bareMs.p50),
        bareP95Us: us(bareMs.p95),
        overheadMeanUs: us(coreMs.mean - bareMs.mean),
        overheadP95Us: us(coreMs.p95 - bareMs.p95),
        coreToBareRatio: coreMs.mean / bareMs.mean,
      },
      settings: {
        calls: CALLS,
        warmUpCalls: WARM_UP,
        path: '/v1/pets?limit=20',
        plan: 'enterprise:100000000:1000000000 (never paced)',
        secretStore: 'MemorySecretStore (key reads are not measured)',
        note: 'service, core and fetch share one Node process; calls are sequential, core and bare alternating; no goal set by the issue',
      },
    };
  } finally {
    await core.dispose();
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const coreCostBench: Bench = { name: 'core-cost', run: benchCoreCost };
