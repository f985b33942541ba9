/**
 * Reconciliation of a send whose outcome is unknown (issue 14, data safety 1 and 2): adopt
 * nothing that may be another device's; resend only when certain; otherwise ask staff.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { NewAnimal } from '../../../src/shared/records/animal';
import { err, ok } from '../../../src/shared/app-api/result';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { EVIDENCE_KEY, KEYS_TRUSTED_MS } from '../../../src/sync/idempotency-evidence';
import { knownIdsFor } from '../../../src/sync/reconcile';
import { SEND_SETTLES_MS } from '../../../src/sync/send-entry';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { animal, entriesOf, FakeApi, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

const SERVICE = 'https://shelter.example.org/v1';
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

/** One profile whose first send of `entered` is cut: `stored` says whether the service kept it. */
async function setup(entered: NewAnimal, cut: { stored: boolean } | null = { stored: true }) {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const { db, profileId, close } = freshDb();
  let serviceUrl = SERVICE;
  const engine = new SyncEngine({
    api,
    db: openProfileDb,
    profileIds: () => [profileId],
    serviceUrl: () => serviceUrl,
    clock,
    random: () => 0,
  });
  cleanups.push(() => engine.stop(), close);
  const outbox = new Outbox(db, clock, new MemorySafetyCopy());
  const cache = new AnimalCache(db);
  // An older animal like it that the app already knew: never a candidate.
  api.store(newAnimal(entered.name, entered.categoryId, entered.status ?? 'available'));
  await cache.saveList({ limit: 20 }, [...api.animals], clock.now());
  clock.advance(1000);
  const entry = await outbox.enqueue(entered);
  if (cut) {
    api.createAnswers.push((input, fake) => {
      if (cut.stored) fake.create(input);
      return err('offline', 'The connection was reset.');
    });
  }
  /** One pass now, and one more after the backoff. */
  const drain = async () => {
    engine.run();
    await engine.whenIdle();
    clock.advance(60_000);
    await engine.whenIdle();
  };
  const moveTo = (url: string) => (serviceUrl = url);
  return { clock, api, db, engine, outbox, cache, entry, profileId, drain, moveTo };
}

describe('reconciliation of an unknown outcome', () => {
  it('asks staff when the service has a matching animal; staff confirm it; nothing is sent again', async () => {
    const { api, engine, outbox, entry, profileId, drain } = await setup(newAnimal('Rex', '2', 'available'));
    await drain();
    expect(api.createCalls).toHaveLength(1);
    expect(api.listCalls.map((c) => c.query)).toEqual([{ limit: 100, status: 'available' }]);
    const [asked] = await entriesOf(outbox);
    expect(asked).toMatchObject({
      state: 'check_needed',
      serverId: null,
      check: { candidates: [{ id: '1001', name: 'Rex' }], complete: true },
    });
    expect(engine.progress(profileId)).toMatchObject({ checkNeeded: 1, allSentAt: null, active: false });

    await outbox.confirmMatch(entry.localId, '1001');
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: '1001' }]);
    expect(api.animals).toHaveLength(2);
  });

  it('never adopts another device’s animal: it asks, and “send mine” creates this one', async () => {
    const { api, engine, outbox, entry, profileId, drain } = await setup(newAnimal('Kitten', '2'), { stored: false });
    await outbox.enqueue(newAnimal('Next', '3')); // the rest of the queue keeps going
    engine.run();
    await engine.whenIdle();
    const fromB = api.store(newAnimal('Kitten', '2', 'available')); // device B, same key, meanwhile
    await drain();
    expect(await entriesOf(outbox)).toMatchObject([
      { state: 'check_needed', check: { candidates: [fromB] } },
      { state: 'sent', animal: { name: 'Next' } },
    ]);
    expect(api.createCalls.map((c) => c.animal.name)).toEqual(['Kitten', 'Next']);

    await outbox.sendMine(entry.localId);
    engine.sendPending(profileId);
    await engine.whenIdle();
    const [mine] = await entriesOf(outbox);
    expect(mine).toMatchObject({ state: 'sent', notOurs: [fromB.id] });
    expect(mine?.serverId).not.toBe(fromB.id);
    expect(api.createCalls.at(-1)?.idempotencyKey).toBe(entry.idempotencyKey);
    expect(api.animals.filter((a) => a.name === 'Kitten')).toHaveLength(3); // the old one, B's, ours
  });

  it('sends again with the same key when every list is complete and holds no match', async () => {
    const { api, outbox, entry, drain } = await setup(newAnimal('Rex', '2'), { stored: false });
    await drain();
    // No status given: every status and the unfiltered list were read.
    expect(api.listCalls).toHaveLength(4);
    expect(api.createCalls.map((c) => c.idempotencyKey)).toEqual([entry.idempotencyKey, entry.idempotencyKey]);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: '1001', doubtSince: null }]);
  });

  it('takes no empty list for proof while the cut send may still be under way at the service', async () => {
    // A gateway gave up on the app (a timeout) while the service went on: it stores the animal
    // a little later. A list read meanwhile is complete and empty, and proves nothing.
    const { api, clock, engine, outbox } = await setup(newAnimal('Rex', '2', 'available'), null);
    let storeLate = () => {};
    api.createAnswers.push((input, fake) => {
      storeLate = () => void fake.create(input);
      return err('timeout', 'The service took too long to answer.');
    });
    engine.run();
    await engine.whenIdle();
    const gaveUpAt = clock.now();
    clock.advance(30_000); // the backoff is long over
    await engine.whenIdle();
    storeLate();
    for (let waited = 0; waited < 5 * 60_000; waited += 5_000) {
      clock.advance(5_000);
      await engine.whenIdle();
    }
    expect(api.createCalls).toHaveLength(1);
    expect(api.animals.filter((a) => a.name === 'Rex')).toHaveLength(2); // the old one the app knew, and ours
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'check_needed', check: { complete: true } }]);
    // Looked into once, a minute after the app gave up: not put off again and again.
    expect((await entriesOf(outbox))[0]!.check!.at - gaveUpAt).toBeLessThanOrEqual(SEND_SETTLES_MS + 5_000);
    expect(api.listCalls).toHaveLength(1);
  });

  it('asks instead of resending blindly when a list comes back full (a match could hide beyond 100)', async () => {
    const { api, outbox, drain } = await setup(newAnimal('Rex', '2', 'pending'), { stored: false });
    for (let i = 0; i < 100; i += 1) api.store(newAnimal(`Other ${i}`, '5', 'pending'));
    await drain();
    expect(api.createCalls).toHaveLength(1);
    expect(await entriesOf(outbox)).toMatchObject([
      { state: 'check_needed', check: { candidates: [], complete: false } },
    ]);
  });

  it('is not thrown off by a full unfiltered list when every status list is complete', async () => {
    const { api, outbox, drain } = await setup(newAnimal('Rex', '2'), { stored: false });
    for (let i = 0; i < 120; i += 1)
      api.store(newAnimal(`Other ${i}`, '5', (['available', 'pending', 'sold'] as const)[i % 3]));
    await drain();
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent' }]);
    expect(api.createCalls).toHaveLength(2);
  });

  it('rules out animals seen before the entry, other entries’ records and those staff rejected', async () => {
    const { db, close } = freshDb();
    cleanups.push(close);
    const clock = new FakeClock();
    const outbox = new Outbox(db, clock, new MemorySafetyCopy());
    const cache = new AnimalCache(db);
    await cache.saveAnimal(animal('1', 'Old', '2'), clock.now());
    const other = await outbox.enqueue(newAnimal('Other'));
    await outbox.markSent(other.localId, animal('2', 'Rex', '2'));
    clock.advance(10);
    const entry = { ...(await outbox.enqueue(newAnimal('Rex', '2'))), notOurs: ['4'] };
    clock.advance(10);
    await cache.saveAnimal(animal('1', 'Old', '2'), clock.now()); // seen again later: still old
    await cache.saveAnimal(animal('3', 'Rex', '2'), clock.now()); // first seen after the entry
    const known = knownIdsFor(entry, await cache.all(), await entriesOf(outbox));
    expect([...known].sort()).toEqual(['1', '2', '4']);
  });
});

describe('a service that has shown it keeps idempotency keys', () => {
  it('takes the core’s own answer to an earlier send of the entry for sent, and for no proof that keys are kept', async () => {
    // A window that took over sends an entry whose first send the core had already seen answered:
    // the core answers with that animal (`answeredBefore`), which this window may already know from
    // a list. The service replayed nothing, so nothing is learnt about its keys.
    const { api, db, outbox, clock, drain } = await setup(newAnimal('Rex', '2', 'available'), null);
    const known = api.animals[0]!;
    api.createAnswers.push(() => ok({ animal: known, fetchedAt: clock.now(), answeredBefore: true }));
    await drain();
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: known.id }]);
    expect(await db.meta.get(EVIDENCE_KEY)).toBeUndefined();
  });

  it('“send mine” replays the first creation: adopted, and the proof is kept for this address', async () => {
    const { api, db, outbox, entry, profileId, engine, drain } = await setup(newAnimal('Rex', '2', 'available'));
    api.honoursKeys = true;
    await drain();
    const [asked] = await entriesOf(outbox);
    expect(asked?.state).toBe('check_needed');
    await outbox.sendMine(entry.localId);
    engine.sendPending(profileId);
    await engine.whenIdle();
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: '1001' }]);
    expect(api.animals).toHaveLength(2);
    expect((await db.meta.get(EVIDENCE_KEY))?.value).toMatchObject({ serviceUrl: SERVICE, how: 'a replayed creation' });
  });

  it('settles a recent doubt by resending with the same key, without looking or asking', async () => {
    const { api, db, clock, outbox, entry, drain } = await setup(newAnimal('Rex', '2', 'available'));
    api.honoursKeys = true;
    await db.meta.put({
      key: EVIDENCE_KEY,
      value: { serviceUrl: SERVICE, how: 'a replayed creation', at: clock.now() },
    });
    await drain();
    expect(api.listCalls).toEqual([]);
    expect(api.createCalls.map((c) => c.idempotencyKey)).toEqual([entry.idempotencyKey, entry.idempotencyKey]);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: '1001' }]);
    expect(api.animals).toHaveLength(2);
  });

  it('does not rely on the proof for another address, nor for a doubt older than the keys are trusted', async () => {
    const moved = await setup(newAnimal('Rex', '2', 'available'));
    await moved.db.meta.put({ key: EVIDENCE_KEY, value: { serviceUrl: SERVICE, how: 'replay', at: 0 } });
    moved.moveTo('https://elsewhere.example.org/v1');
    await moved.drain();
    expect((await entriesOf(moved.outbox))[0]?.state).toBe('check_needed');

    const old = await setup(newAnimal('Rex', '2', 'available'));
    await old.db.meta.put({ key: EVIDENCE_KEY, value: { serviceUrl: SERVICE, how: 'replay', at: 0 } });
    old.engine.run();
    await old.engine.whenIdle();
    old.clock.advance(KEYS_TRUSTED_MS);
    await old.engine.whenIdle();
    expect(old.api.createCalls).toHaveLength(1);
    expect((await entriesOf(old.outbox))[0]?.state).toBe('check_needed');
  });

  it('takes a 409 that names the idempotency key as proof', async () => {
    const { api, db, drain } = await setup(newAnimal('Rex', '2', 'available'), null);
    api.failCreate('conflict', 'a request with this Idempotency-Key is in progress', {
      status: 409,
      serviceCode: 'idempotency_in_flight',
    });
    await drain();
    expect((await db.meta.get(EVIDENCE_KEY))?.value).toMatchObject({
      serviceUrl: SERVICE,
      how: 'an idempotency answer (409)',
    });
  });
});
