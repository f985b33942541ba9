// @vitest-environment node
/**
 * The sync engine against the local Animal Adoption Service without idempotency support
 * (`--no-idempotency`) and a `reset-after` fault: the creation is stored but the answer is
 * lost. The engine must adopt the stored animal instead of creating a duplicate.
 * The core's service client is used directly, with retries off, so exactly one POST goes out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../electron/core/governor';
import { createServiceClient } from '../../../electron/core/service-client';
import { systemClock } from '../../../electron/core/clock';
import { closeProfileDb, openProfileDb } from '../../../src/data/db';
import { Outbox } from '../../../src/data/outbox';
import { SyncEngine } from '../../../src/data/sync-engine';
import type { AdoptionApi } from '../../../src/shared/client';
import { startService, type RunningService, type ServiceOptions } from '../../service/index';
import { FakeClock, pet, uniqueProfileId } from './test-helpers';

const KEY = 'sync-engine-test-key';
let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function serve(options: ServiceOptions): Promise<RunningService> {
  const service = await startService({ keys: { [KEY]: 'free' }, idempotency: false, ...options });
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
    createPet: ({ pet: newPet, idempotencyKey }) => client.createPet(newPet, idempotencyKey),
    listPets: ({ query }) => client.listPets(query),
  };
}

describe('SyncEngine with the local service (--no-idempotency, reset-after)', () => {
  it('adopts the animal a lost answer created, and creates no duplicate', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'adoption-sync-'));
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    const dataFile = join(folder, 'data.json');
    const profileId = uniqueProfileId();
    cleanups.push(() => closeProfileDb(profileId));

    // A service that already holds an animal like the one about to be entered.
    const seeded = await serve({ dataFile });
    const api0 = apiFor(seeded.url, profileId);
    const earlier = await api0.createPet({
      profileId,
      pet: pet('Rex', '2', 'available'),
      idempotencyKey: crypto.randomUUID(),
    });
    expect(earlier.ok).toBe(true);
    await seeded.stop();

    const broken = await serve({ dataFile, port: seeded.port, faults: 'reset-after:1' });
    const clock = new FakeClock();
    const engine = new SyncEngine({
      api: apiFor(broken.url, profileId),
      db: openProfileDb,
      profileIds: () => [profileId],
      clock,
    });
    cleanups.push(() => engine.stop());
    const outbox = new Outbox(openProfileDb(profileId), clock);
    const entry = await outbox.enqueue(pet('Rex', '2', 'available'));

    engine.start();
    await engine.whenIdle();
    expect(broken.animalCount()).toBe(2); // stored, but the answer was lost
    const [waiting] = await outbox.list();
    expect(waiting).toMatchObject({ state: 'queued', unknownOutcome: true, attempts: 1 });
    expect(['offline', 'bad_response', 'timeout']).toContain(waiting?.lastError?.code);
    await broken.stop();

    const healthy = await serve({ dataFile, port: seeded.port });
    engine.stop();
    const next = new SyncEngine({
      api: apiFor(healthy.url, profileId),
      db: openProfileDb,
      profileIds: () => [profileId],
      clock,
    });
    cleanups.push(() => next.stop());
    next.start(); // a kick at start does not wait for the backoff
    await next.whenIdle();

    expect(healthy.animalCount()).toBe(2);
    const [sent] = await outbox.list();
    expect(sent).toMatchObject({ localId: entry.localId, state: 'sent', attempts: 1 });
    expect(sent?.serverId).not.toBe(earlier.ok ? earlier.data.animal.id : null);
    expect(sent?.serverId).toMatch(/^\d+$/);
  });
});
