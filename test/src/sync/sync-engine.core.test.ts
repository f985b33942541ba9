// @vitest-environment node
/**
 * The sync engine of a window that took over the sending, against the real core (router, safety
 * copy, governor, service client) on one fake clock, with a service slower than the app's limits
 * that ignores Idempotency-Key: the simulator's day 363 of seed 20261126 in miniature. The window
 * that sent Rex closed mid-send; the core gave up waiting (a timeout) while the service went on
 * and stored Rex a little later. The window that took over must not send Rex again before that
 * has settled, must not stop the rest of the queue for it, and nothing may say the service is
 * unreachable because of it (c0b75b1 answered its sends with the timeout again: the whole queue
 * stopped and the screen said Offline while the service answered).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../electron/core/app-core';
import { HEADERS_TIMEOUT_MS } from '../../../electron/core/http/http-client';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { SEND_SETTLES_MS } from '../../../src/shared/app-api/api';
import type { AdoptionApi } from '../../../src/shared/app-api/client';
import type { Animal } from '../../../src/shared/records/animal';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { entriesOf, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';
import { openProfileDb } from '../../../src/storage/db';

const RESOURCES = resolve(import.meta.dirname, '../../../resources');
const CORE_PROFILE = 'local';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/**
 * A service that ignores Idempotency-Key and lists what it stored; Rex's first creation is slow:
 * no answer before the app gives up, and stored only when `finishRex` is called.
 */
function slowService() {
  const stored: Animal[] = [];
  const posts: string[] = [];
  let finishRex = (): void => {};
  let reached = (): void => {};
  const store = (body: string): string => {
    const animal: Animal = { ...(JSON.parse(body) as Animal), id: String(stored.length + 1) };
    stored.push(animal);
    return JSON.stringify(animal);
  };
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    if (init.method !== 'POST') {
      const status = new URL(String(input)).searchParams.get('status');
      const listed = stored.filter((animal) => status === null || animal.status === status);
      return new Response(JSON.stringify(listed), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }
    const body = String(init.body);
    const name = (JSON.parse(body) as { name: string }).name;
    posts.push(name);
    reached();
    if (name === 'Rex' && posts.filter((posted) => posted === 'Rex').length === 1) {
      finishRex = () => void store(body);
      return new Promise<Response>((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason), { once: true }),
      );
    }
    return new Response(store(body), { status: 201, headers: { 'Content-Type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return {
    fetch,
    stored,
    posts,
    finishRex: () => finishRex(),
    reachedOnce: () => new Promise<void>((resolve) => (reached = resolve)),
  };
}

async function startCore(fetch: typeof globalThis.fetch, clock: FakeClock): Promise<AppCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adoption-engine-core-'));
  const core = await createAppCore({
    fetch,
    dataDir,
    clock,
    secretStore: new MemorySecretStore(),
    builtIns: { file: join(RESOURCES, 'profiles.json') },
    localDemoUrl: 'http://127.0.0.1:9/v1',
    assumedRate: 1_000,
  });
  cleanups.push(async () => {
    await core.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });
  await core.router.handle('setKey', { profileId: CORE_PROFILE, key: 'k1' });
  return core;
}

/** The window's API: its one profile is the core's Local demo profile. */
function apiOf(core: AppCore): Pick<AdoptionApi, 'createPet' | 'listPets'> {
  return {
    createPet: (input) =>
      core.router.handle('createPet', { ...input, profileId: CORE_PROFILE }) as ReturnType<AdoptionApi['createPet']>,
    listPets: (input) =>
      core.router.handle('listPets', { ...input, profileId: CORE_PROFILE }) as ReturnType<AdoptionApi['listPets']>,
  };
}

/**
 * Waits for the engine's passes. Fake time moves only to fire the timers due within a second
 * (the core's governor paces requests on the clock); meanwhile the real disk (the safety copy's
 * fsyncs) and the window's database get the turns they need. The minute a held entry waits is
 * never skipped here.
 */
async function idle(engine: SyncEngine, clock: FakeClock): Promise<void> {
  let done = false;
  const passes = engine.whenIdle().then(() => (done = true));
  while (!done) {
    const next = clock.pendingTimers()[0];
    if (next !== undefined && next - clock.now() <= 1_000) await clock.advanceAndSettleTo(next);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  await passes;
}

describe('a window that takes over an entry the core gave up waiting on', () => {
  it('sends the others at once, keeps saying the service answers, and looks for it only once it has settled: sent once', async () => {
    const clock = new FakeClock();
    const service = slowService();
    const core = await startCore(service.fetch, clock);
    const reachable: boolean[] = [];
    core.events.subscribe((event, payload) => {
      if (event === 'connectivity') reachable.push((payload as { online: boolean }).online);
    });
    const { db, profileId, close } = freshDb();
    cleanups.push(close);
    const outbox = new Outbox(db, clock, new MemorySafetyCopy());
    const [rex] = await outbox.enqueueMany([
      newAnimal('Rex', '2', 'available'),
      newAnimal('Bella', '1', 'available'),
      newAnimal('Max', '3', 'available'),
    ]);
    await core.router.handle('keepEntries', {
      profileId: CORE_PROFILE,
      batch: crypto.randomUUID(),
      complete: true,
      entries: (await entriesOf(outbox)).map(({ localId, idempotencyKey, animal, createdAt }) => ({
        localId,
        idempotencyKey,
        animal,
        createdAt,
      })),
    });

    // The first window sends Rex and is closed before the answer: its entry stays "sending".
    await outbox.markSending(rex!.localId);
    const atService = service.reachedOnce();
    void apiOf(core).createPet({ profileId, animal: rex!.animal, idempotencyKey: rex!.idempotencyKey });
    await atService;
    await clock.advanceAndSettle(HEADERS_TIMEOUT_MS); // the core gives up: a timeout
    const gaveUpAt = clock.now();
    expect(reachable).toEqual([false]);

    // The window that takes over.
    const engine = new SyncEngine({
      api: apiOf(core),
      db: openProfileDb,
      profileIds: () => [profileId],
      serviceUrl: () => 'http://127.0.0.1:9/v1',
      clock,
      random: () => 0,
    });
    cleanups.push(() => engine.stop());
    engine.run();
    await idle(engine, clock);
    expect(service.posts).toEqual(['Rex', 'Bella', 'Max']);
    expect(clock.now() - gaveUpAt).toBeLessThan(SEND_SETTLES_MS / 2);
    expect(await entriesOf(outbox)).toMatchObject([
      { state: 'queued', lastError: { code: 'settling' } },
      { state: 'sent' },
      { state: 'sent' },
    ]);
    // Every report since the timeout says the service answers, and the queue is not failing.
    expect(reachable.slice(1).length).toBeGreaterThan(0);
    expect(reachable.slice(1).every((online) => online)).toBe(true);
    expect(engine.progress(profileId)).toMatchObject({ lastError: null, pausedFor: null, sent: 2, total: 3 });

    // The slow service stores Rex now, after the app gave up and after the lists were read.
    service.finishRex();
    // Small steps: the core's governor and the window's database both await between timers.
    for (let waited = 0; waited < SEND_SETTLES_MS + 10_000; waited += 500) await clock.advanceAndSettle(500);
    await idle(engine, clock);
    // Looked for once the minute had passed: an animal like Rex the device did not know is there;
    // on a service that ignores keys the app cannot tell whose it is, and asks staff.
    expect(service.posts).toEqual(['Rex', 'Bella', 'Max']);
    expect(service.stored.filter((animal) => animal.name === 'Rex')).toHaveLength(1);
    const [rexAfter, ...others] = await entriesOf(outbox);
    expect(rexAfter).toMatchObject({ state: 'check_needed', check: { candidates: [{ name: 'Rex' }], complete: true } });
    expect(rexAfter!.check!.at).toBeGreaterThanOrEqual(gaveUpAt + SEND_SETTLES_MS);
    expect(others).toMatchObject([{ state: 'sent' }, { state: 'sent' }]);
    expect(reachable.slice(1).every((online) => online)).toBe(true);
  });
});
