import { afterEach, describe, expect, it } from 'vitest';
import { AnimalCache } from '../../../src/data/animal-cache';
import { openProfileDb } from '../../../src/data/db';
import { Outbox } from '../../../src/data/outbox';
import { knownIdsFor } from '../../../src/data/reconcile';
import { SyncEngine } from '../../../src/data/sync-engine';
import { err } from '../../../src/shared/result';
import { FakeApi, FakeClock, animal, freshDb, pet } from './test-helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

/** An outbox whose first send reaches the service but whose answer is lost (reset after). */
async function setupLostAnswer() {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const { db, profileId, close } = freshDb();
  const engine = new SyncEngine({ api, db: openProfileDb, profileIds: () => [profileId], clock });
  cleanups.push(() => engine.stop(), close);
  const outbox = new Outbox(db, clock);
  const cache = new AnimalCache(db);
  // An older "Rex" the app already knew, and the same for another outbox entry's record.
  api.store(pet('Rex', '2', 'available'));
  await cache.saveList({ limit: 20 }, [...api.animals], clock.now());
  clock.advance(1000);
  const entry = await outbox.enqueue(pet('Rex', '2', 'available'));
  api.createAnswers.push((input, fake) => {
    fake.store(input.pet);
    return err('offline', 'The connection was reset.');
  });
  return { clock, api, engine, outbox, cache, entry, profileId };
}

describe('reconciliation of an unknown outcome', () => {
  it('adopts the animal the service stored instead of sending again', async () => {
    const { clock, api, engine, outbox, cache, entry, profileId } = await setupLostAnswer();
    engine.start();
    await engine.whenIdle();
    expect(await outbox.list()).toMatchObject([{ state: 'queued', unknownOutcome: true }]);
    expect(api.animals).toHaveLength(2);

    clock.advance(2000);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    expect(api.listCalls).toEqual([{ profileId, query: { limit: 100, status: 'available' } }]);
    expect(api.animals).toHaveLength(2); // no duplicate
    const [adopted] = await outbox.list();
    expect(adopted).toMatchObject({ localId: entry.localId, state: 'sent', serverId: '1001', unknownOutcome: false });
    expect((await cache.read('1001'))?.animal.name).toBe('Rex');
    expect(engine.progress(profileId)).toMatchObject({ sent: 1, total: 1, lastError: null });
  });

  it('sends again with the same key when no new matching animal is listed', async () => {
    const { clock, api, engine, outbox, entry } = await setupLostAnswer();
    api.createAnswers.length = 0;
    api.failCreate('timeout', 'No answer.'); // never reached the service this time
    engine.start();
    await engine.whenIdle();
    clock.advance(2000);
    await engine.whenIdle();
    expect(api.listCalls).toHaveLength(1);
    expect(api.createCalls.map((c) => c.idempotencyKey)).toEqual([entry.idempotencyKey, entry.idempotencyKey]);
    expect(await outbox.list()).toMatchObject([{ state: 'sent', serverId: '1001' }]);
    expect(api.animals.map((a) => a.id)).toEqual(['1000', '1001']);
  });

  it('retries the check later when the list itself fails, without sending', async () => {
    const { clock, api, engine, outbox } = await setupLostAnswer();
    api.failList('offline', 'Still offline.');
    engine.start();
    await engine.whenIdle();
    clock.advance(2000);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    expect(await outbox.list()).toMatchObject([
      { state: 'queued', unknownOutcome: true, lastError: { code: 'offline' } },
    ]);
    clock.advance(2000);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    expect(await outbox.list()).toMatchObject([{ state: 'sent', serverId: '1001' }]);
  });

  it('treats animals seen before the entry and other entries’ records as known', async () => {
    const { db, close } = freshDb();
    cleanups.push(close);
    const clock = new FakeClock();
    const outbox = new Outbox(db, clock);
    const cache = new AnimalCache(db);
    await cache.saveAnimal(animal('1', 'Old', '2'), clock.now());
    const other = await outbox.enqueue(pet('Other'));
    await outbox.markSent(other.localId, animal('2', 'Rex', '2'));
    clock.advance(10);
    const entry = await outbox.enqueue(pet('Rex', '2'));
    clock.advance(10);
    await cache.saveAnimal(animal('1', 'Old', '2'), clock.now()); // seen again later: still old
    await cache.saveAnimal(animal('3', 'Rex', '2'), clock.now()); // first seen after the entry
    const known = knownIdsFor(entry, await cache.all(), await outbox.list());
    expect([...known].sort()).toEqual(['1', '2']);
  });
});
