// @vitest-environment node
/**
 * The sync engine against the local Animal Adoption Service, with a `reset-after` fault on
 * the first creation: the service stores it and the answer is lost. Without idempotency
 * support the engine cannot be sure the stored animal is its own (another device with the
 * same key may have entered it), so it asks staff and sends nothing; with it, staff's "send
 * mine" replays the first creation, and from then on a doubt is settled by resending.
 * The core's service client is used directly, with retries off, so each POST goes out once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../electron/core/service/service-client';
import type { AdoptionApi } from '../../../src/shared/app-api/client';
import { systemClock } from '../../../src/shared/basics/clock';
import { closeProfileDb, openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { type RunningService, type ServiceOptions, startService } from '../../service/index';
import { entriesOf, FakeClock, MemorySafetyCopy, newAnimal, uniqueProfileId } from '../support/test-helpers';

const KEY = 'sync-engine-test-key';
let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function serve(options: ServiceOptions): Promise<RunningService> {
  const service = await startService({ keys: { [KEY]: 'pro' }, ...options });
  cleanups.push(() => service.stop());
  return service;
}

function apiFor(baseUrl: string, profileId: string): Pick<AdoptionApi, 'createPet' | 'listPets'> {
  const governor = new RateLimitGovernor({ profileId, clock: systemClock, maxRetries: 0 });
  cleanups.push(() => governor.dispose());
  const client = createServiceClient({
    fetch: globalThis.fetch,
    baseUrl,
    profileId,
    governor,
    clock: systemClock,
    getKey: async () => KEY,
  });
  return {
    createPet: ({ animal, idempotencyKey }) => client.createPet(animal, idempotencyKey),
    listPets: ({ query }) => client.listPets(query),
  };
}

/** A profile whose entries are sent once to a service that stores them and loses every answer, then to a healthy one. */
async function lostAnswers(options: ServiceOptions) {
  const folder = await mkdtemp(join(tmpdir(), 'adoption-sync-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const dataFile = join(folder, 'data.json');
  const profileId = uniqueProfileId();
  cleanups.push(() => closeProfileDb(profileId));
  const clock = new FakeClock();
  const outbox = new Outbox(openProfileDb(profileId), clock, new MemorySafetyCopy());
  const engineFor = (service: RunningService) => {
    const engine = new SyncEngine({
      api: apiFor(service.url, profileId),
      db: openProfileDb,
      profileIds: () => [profileId],
      serviceUrl: () => service.url,
      clock,
    });
    cleanups.push(() => engine.stop());
    return engine;
  };
  /** Sends what is queued to a service that loses every answer, then starts a healthy one. */
  const sendAndLose = async (port?: number): Promise<RunningService> => {
    const broken = await serve({ ...options, dataFile, faults: 'reset-after:1', ...(port ? { port } : {}) });
    const engine = engineFor(broken);
    engine.run();
    await engine.whenIdle();
    engine.stop();
    await broken.stop();
    return serve({ ...options, dataFile, port: broken.port });
  };
  return { clock, outbox, profileId, engineFor, sendAndLose, apiFor: (url: string) => apiFor(url, profileId) };
}

describe('SyncEngine with the local service, the answer lost after the animal was stored', () => {
  it('--no-idempotency: asks staff, showing the stored animal and another device’s; sends nothing', async () => {
    const { outbox, profileId, engineFor, sendAndLose, apiFor: api } = await lostAnswers({ idempotency: false });
    const entry = await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    const healthy = await sendAndLose();
    expect(healthy.animalCount()).toBe(1);
    // Another device enters a Rex as well, meanwhile.
    const theirs = await api(healthy.url).createPet({
      profileId,
      animal: newAnimal('Rex', '2', 'available'),
      idempotencyKey: crypto.randomUUID(),
    });
    const engine = engineFor(healthy);
    engine.run();
    await engine.whenIdle();

    const [asked] = await entriesOf(outbox);
    expect(asked).toMatchObject({ state: 'check_needed', serverId: null });
    const ids = asked?.check?.candidates.map((animal) => animal.id) ?? [];
    expect(ids).toHaveLength(2);
    expect(ids).toContain(theirs.ok ? theirs.data.animal.id : 'missing');
    expect(healthy.animalCount()).toBe(2);

    const ours = ids.find((id) => id !== (theirs.ok ? theirs.data.animal.id : ''));
    await outbox.confirmMatch(entry.localId, ours ?? '');
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: ours }]);
    expect(healthy.animalCount()).toBe(2);
  });

  it('--no-idempotency, 100 newer animals of the status: asks rather than creating it again', async () => {
    const { outbox, profileId, engineFor, sendAndLose, apiFor: api } = await lostAnswers({ idempotency: false });
    await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    const healthy = await sendAndLose();
    const other = api(healthy.url);
    for (let i = 0; i < 100; i += 1) {
      const created = await other.createPet({
        profileId,
        animal: newAnimal(`Newer ${i}`, '3', 'available'),
        idempotencyKey: crypto.randomUUID(),
      });
      expect(created.ok).toBe(true);
    }
    const engine = engineFor(healthy);
    engine.run();
    await engine.whenIdle();
    expect((await entriesOf(outbox))[0]?.state).toBe('check_needed');
    expect(healthy.animalCount()).toBe(101);
  });

  it('honouring keys: "send mine" replays the stored animal; the next doubt is settled alone', async () => {
    const { outbox, engineFor, sendAndLose } = await lostAnswers({ idempotency: true });
    const rex = await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    let healthy = await sendAndLose();
    let engine = engineFor(healthy);
    engine.run();
    await engine.whenIdle();
    const [asked] = await entriesOf(outbox);
    expect(asked?.state).toBe('check_needed');
    const storedId = asked?.check?.candidates[0]?.id;

    await outbox.sendMine(rex.localId);
    engine.sendPending();
    await engine.whenIdle();
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: storedId }]);
    expect(healthy.animalCount()).toBe(1);
    engine.stop();
    await healthy.stop();

    await outbox.enqueue(newAnimal('Tom', '4', 'pending'));
    healthy = await sendAndLose(healthy.port);
    engine = engineFor(healthy);
    engine.run();
    await engine.whenIdle();
    expect((await entriesOf(outbox)).map((entry) => entry.state)).toEqual(['sent', 'sent']);
    expect(healthy.animalCount()).toBe(2);
  });
});
