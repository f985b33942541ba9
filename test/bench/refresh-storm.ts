/**
 * Refresh storm (issue 11): behind nginx (1 r/s, burst 3, 429 with `Retry-After: 30`, rate
 * headers hidden), another device of the key has just used the gateway's burst, so the app's
 * list read is refused and told to wait 30 s. During that wait staff click Refresh 15 times
 * (one every 2 s) while 20 creations wait in the outbox (sent one after another). Ours is a
 * real app core: the list read and each click through the router with the list screen's view,
 * the creations through the router as the outbox sends them. Naive and reactive side by side.
 *
 * Ideal = the 30 s the gateway imposes + 20 creations at 1 r/s = 50 s; goal for ours: all 20
 * created within 2 × ideal, and at most one list request per wait.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAppCore } from '../../electron/core/app-core';
import { MemorySecretStore } from '../../electron/core/keys/memory-secret-store';
import { readRequestLog, startService } from '../service/index';
import { type GatewayLogLine, nginxAvailable, startGateway } from '../support/nginx';
import { type Creation, type DrainTarget, makeCreations, sleep } from './clients/post-pet';
import { naiveStormClient, reactiveStormClient, type StormClient } from './clients/storm-clients';
import type { Bench, BenchResult } from './lib/report';

const CREATIONS = 20;
const CLICKS = 15;
const CLICK_EVERY_MS = 2000;
const RETRY_AFTER_S = 30;
const IDEAL_MS = RETRY_AFTER_S * 1000 + CREATIONS * 1000;
const DEADLINE_MS = 240_000;
const RESOURCES = resolve(import.meta.dirname, '../../resources');

/** Ours: an app core of its own; Refresh is the list screen's read through the router. */
async function appCoreClient(target: DrainTarget): Promise<StormClient & { dispose(): Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'adoption-bench-storm-'));
  const core = await createAppCore({
    fetch: globalThis.fetch,
    dataDir,
    secretStore: new MemorySecretStore(),
    builtIns: { file: join(RESOURCES, 'profiles.json') },
    localDemoUrl: target.url,
    logError: () => undefined,
  });
  await core.router.handle('setKey', { profileId: 'local', key: target.key });
  const list = () => core.router.handle('listPets', { profileId: 'local', query: { limit: 20 }, view: 'animal-list' });
  return {
    refresh: () => void list(),
    async drain(creations: readonly Creation[]) {
      let created = 0;
      for (const creation of creations) {
        const input = { profileId: 'local', animal: creation.animal, idempotencyKey: creation.idempotencyKey };
        while (!target.signal.aborted) {
          if ((await core.router.handle('createPet', input)).ok) {
            created += 1;
            break;
          }
        }
      }
      return created;
    },
    async dispose() {
      await core.dispose();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Run {
  firstCreationMs: number;
  allCreatedMs: number;
  ratioToIdeal: number;
  created: number;
  listRequests: number;
  listRequestsDuringWait: number;
  refused: number;
  requests: number;
}

type MakeClient = (target: DrainTarget) => Promise<StormClient & { dispose?(): Promise<void> }>;
const CLIENTS: ReadonlyArray<readonly [string, MakeClient]> = [
  ['ours', appCoreClient],
  ['naive', async (target) => naiveStormClient(target)],
  ['reactive', async (target) => reactiveStormClient(target)],
];

async function runOne(name: string, make: MakeClient, dir: string): Promise<Run> {
  const key = `bench-storm-${name}`;
  const logFile = join(dir, `${name}.log`);
  const service = await startService({ keys: { [key]: 'business' }, seedAnimals: 20, logFile });
  const gateway = await startGateway({
    upstream: service.url,
    mode: '429-retry-after',
    retryAfterSeconds: RETRY_AFTER_S,
  });
  const signal = AbortSignal.timeout(DEADLINE_MS);
  const target = { url: gateway.url, key, signal };
  const client = await make(target);
  try {
    // another device of the key uses up the gateway's burst
    await Promise.all(
      Array.from({ length: 4 }, () =>
        fetch(`${gateway.url}/pets?limit=1`, { headers: { Authorization: `Bearer ${key}` } }).then((r) =>
          r.arrayBuffer(),
        ),
      ),
    );
    const started = Date.now();
    client.refresh(); // the list screen opens: refused, told to wait 30 s
    const drained = client.drain(makeCreations(CREATIONS, `Storm ${name}`));
    for (let click = 0; click < CLICKS; click += 1) {
      await sleep(CLICK_EVERY_MS, signal);
      client.refresh();
    }
    const created = await drained;
    const lines = (await gateway.readAccessLog()).filter((line) => line.at >= started);
    const creations = (await readRequestLog(logFile)).filter((line) => line.createdId !== null);
    const createdAt = creations.map((line) => Date.parse(line.time) - started);
    const refusedAt = lines.find((line) => line.status === 429)?.at ?? started;
    const lists = (from: number, to: number) =>
      lines.filter((line: GatewayLogLine) => line.method === 'GET' && line.at > from && line.at < to).length;
    return {
      firstCreationMs: Math.min(...createdAt),
      allCreatedMs: created === CREATIONS ? Math.max(...createdAt) : DEADLINE_MS,
      ratioToIdeal: (created === CREATIONS ? Math.max(...createdAt) : DEADLINE_MS) / IDEAL_MS,
      created,
      listRequests: lists(started - 1, Infinity),
      listRequestsDuringWait: lists(refusedAt, refusedAt + RETRY_AFTER_S * 1000),
      refused: lines.filter((line) => line.status === 429).length,
      requests: lines.length,
    };
  } finally {
    await client.dispose?.();
    await gateway.stop();
    await service.stop();
  }
}

export async function benchRefreshStorm(): Promise<BenchResult> {
  if (!nginxAvailable()) throw new Error('the refresh-storm bench needs nginx (apt-get install -y nginx)');
  const dir = await mkdtemp(join(tmpdir(), 'adoption-bench-storm-'));
  try {
    console.log('  refresh storm: ours, naive and reactive side by side…');
    const runs = await Promise.all(CLIENTS.map(async ([name, make]) => [name, await runOne(name, make, dir)] as const));
    const cell = (text: string) => text.padStart(10);
    console.log(`${'refresh storm'.padEnd(24)}${runs.map(([name]) => cell(name)).join('')}`);
    const figures: Record<string, number> = { idealMs: IDEAL_MS };
    for (const metric of Object.keys(runs[0]?.[1] ?? {}) as (keyof Run)[]) {
      const values = runs.map(([, run]) =>
        cell(Number.isInteger(run[metric]) ? String(run[metric]) : run[metric].toFixed(3)),
      );
      console.log(`${metric.padEnd(24)}${values.join('')}`);
      for (const [name, run] of runs) figures[`${name}.${metric}`] = run[metric];
    }
    const ours = runs[0]![1];
    figures.oursMeetsGoal =
      ours.created === CREATIONS && ours.ratioToIdeal <= 2 && ours.listRequestsDuringWait <= 1 ? 1 : 0;
    return {
      name: 'refresh-storm',
      description: `${CLICKS} Refresh clicks during a Retry-After: ${RETRY_AFTER_S} wait with ${CREATIONS} creations queued`,
      figures,
      settings: {
        gateway: 'nginx limit_req 1 r/s burst 3 nodelay per key, 429 with Retry-After: 30, rate headers hidden',
        scenario: `4 requests of another device first; then the list read, ${CREATIONS} creations one after another, a click every ${CLICK_EVERY_MS / 1000} s`,
        idealFormula: 'the 30 s wait + creations / 1 r/s',
        goal: 'ours: all created within 2 × ideal; at most 1 list request per wait',
        listRequestsDuringWait: 'GETs nginx logged after the first refusal and within its 30 s',
        deadlineMs: DEADLINE_MS,
        run: 'the three clients at the same time, each with its own service and nginx',
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const refreshStormBench: Bench = { name: 'refresh-storm', run: benchRefreshStorm };
