import { afterEach, describe, expect, it, vi } from 'vitest';
import { err, ok } from '../../../src/shared/app-api/result';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine, type SyncProgress } from '../../../src/sync/sync-engine';
import {
  entriesOf,
  FakeApi,
  FakeClock,
  freshDb,
  MemorySafetyCopy,
  newAnimal,
  pendingOf,
} from '../support/test-helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function setup(profileCount = 1) {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const profiles = Array.from({ length: profileCount }, () => freshDb());
  const ids = profiles.map((p) => p.profileId);
  const engine = new SyncEngine({ api, db: openProfileDb, profileIds: () => ids, clock, random: () => 0 });
  const events: SyncProgress[] = [];
  engine.onProgress((p) => events.push(p));
  cleanups.push(() => engine.stop(), ...profiles.map((p) => p.close));
  const outboxes = profiles.map((p) => new Outbox(p.db, clock, new MemorySafetyCopy()));
  const [profileId = '', outbox = outboxes[0]!] = [ids[0], outboxes[0]];
  const db = profiles[0]!.db;
  return { clock, api, engine, events, ids, outboxes, profileId, outbox, db };
}

describe('SyncEngine', () => {
  it('sends in creation order, one at a time, and caches each created animal', async () => {
    const { api, engine, outbox, db, profileId } = setup();
    for (const name of ['A', 'B', 'C', 'D']) await outbox.enqueue(newAnimal(name, '5', 'available'));
    engine.run();
    await engine.whenIdle();

    expect(api.createCalls.map((c) => c.animal.name)).toEqual(['A', 'B', 'C', 'D']);
    expect(api.maxConcurrentCreates).toBe(1);
    expect(api.createCalls.every((c) => c.profileId === profileId)).toBe(true);
    expect(api.listCalls).toEqual([]);
    const entries = await entriesOf(outbox);
    expect(entries.map((e) => [e.state, e.serverId])).toEqual([
      ['sent', '1000'],
      ['sent', '1001'],
      ['sent', '1002'],
      ['sent', '1003'],
    ]);
    expect(entries.map((e) => e.idempotencyKey)).toEqual(api.createCalls.map((c) => c.idempotencyKey));
    expect((await new AnimalCache(db).read('1002'))?.animal).toEqual({
      id: '1002',
      name: 'C',
      categoryId: '5',
      status: 'available',
    });
  });

  it('reports progress while sending and a notice time when all are sent', async () => {
    const { api, clock, engine, events, outbox, profileId } = setup();
    await outbox.enqueue(newAnimal('A'));
    await outbox.enqueue(newAnimal('B'));
    // An animal entered while the first is being sent (the store tells the engine) joins the same drain.
    api.createAnswers.push(async (input, fake) => {
      await outbox.enqueue(newAnimal('Late'));
      engine.sendPending(profileId);
      return ok({ animal: fake.store(input.animal), fetchedAt: clock.now() });
    });
    engine.run();
    await engine.whenIdle();

    const seen = events.map((e) => `${e.sent}/${e.total}${e.active ? '' : ' idle'}`);
    expect(seen[0]).toBe('0/2');
    expect(seen).toContain('1/3');
    expect(seen).toContain('2/3');
    expect(seen.at(-1)).toBe('3/3 idle');
    expect(engine.progress(profileId)).toMatchObject({ total: 3, sent: 3, active: false, allSentAt: clock.now() });
    // "All sent" first shows once all three are (the pass the late entry asked for then finds nothing to do).
    expect(seen[events.findIndex((e) => e.allSentAt !== null)]).toBe('3/3 idle');
  });

  it('counts entries added while a send is held (a rate-limit wait) into the batch at once', async () => {
    const { api, clock, engine, events, outbox, profileId } = setup();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api.createAnswers.push(async (input, fake) => {
      await held;
      return ok({ animal: fake.store(input.animal), fetchedAt: clock.now() });
    });
    engine.run();
    await outbox.enqueue(newAnimal('First'));
    engine.sendPending(profileId);
    await vi.waitFor(() => expect(api.createCalls).toHaveLength(1));
    for (const name of ['Second', 'Third', 'Fourth']) {
      await outbox.enqueue(newAnimal(name));
      engine.sendPending(profileId);
    }
    // The first send is still held: the progress already counts all four.
    await vi.waitFor(() => expect(engine.progress(profileId)).toMatchObject({ sent: 0, total: 4, active: true }));
    release();
    await engine.whenIdle();
    const totals = events.filter((e) => e.sent > 0).map((e) => e.total);
    expect(new Set(totals)).toEqual(new Set([4]));
    expect(engine.progress(profileId)).toMatchObject({ sent: 4, total: 4, active: false });
  });

  it('sets a refused entry aside with the service message and keeps sending the rest', async () => {
    const { api, engine, outbox, profileId } = setup();
    const bad = await outbox.enqueue(newAnimal('Bad', '9'));
    await outbox.enqueue(newAnimal('Good', '1'));
    api.failCreate('invalid', 'categoryId 9 does not exist', { status: 400, serviceCode: 'bad_request' });
    engine.run();
    await engine.whenIdle();

    expect(api.createCalls.map((c) => c.animal.name)).toEqual(['Bad', 'Good']);
    const [first, second] = await entriesOf(outbox);
    expect(first).toMatchObject({ state: 'needs_attention', lastError: { message: 'categoryId 9 does not exist' } });
    expect(second).toMatchObject({ state: 'sent', serverId: '1000' });
    expect(engine.progress(profileId)).toMatchObject({ needsAttention: 1, sent: 1, total: 2, pausedFor: null });

    // Staff correct it: it goes out again with a new key.
    await outbox.edit(bad.localId, newAnimal('Bad', '1'));
    engine.sendPending(profileId);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(3);
    expect(api.createCalls[2]?.idempotencyKey).not.toBe(bad.idempotencyKey);
    expect((await entriesOf(outbox))[0]).toMatchObject({ state: 'sent', serverId: '1001' });
  });

  it('pauses a profile on 401 until resumed, keeping the entry and its key', async () => {
    const { api, engine, outbox, profileId } = setup();
    const a = await outbox.enqueue(newAnimal('A'));
    await outbox.enqueue(newAnimal('B'));
    api.failCreate('unauthorized', 'The API key was refused.', { status: 401 });
    engine.run();
    await engine.whenIdle();

    expect(api.createCalls).toHaveLength(1);
    expect(engine.progress(profileId)).toMatchObject({ pausedFor: 'unauthorized', active: false, sent: 0, total: 2 });
    expect((await pendingOf(outbox)).map((e) => e.state)).toEqual(['queued', 'queued']);

    engine.sendPending(profileId); // a kick does not retry a refused key
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);

    engine.resumeAfterKey(profileId);
    await engine.whenIdle();
    expect(api.createCalls.map((c) => c.animal.name)).toEqual(['A', 'A', 'B']);
    expect(api.createCalls[1]?.idempotencyKey).toBe(a.idempotencyKey);
    expect(engine.progress(profileId)).toMatchObject({ pausedFor: null, sent: 2, lastError: null });
  });

  it('pauses only the profile without a key; the others keep going, a kick after setting it resumes', async () => {
    const { api, engine, outboxes, ids } = setup(2);
    await outboxes[0]!.enqueue(newAnimal('NoKey'));
    await outboxes[1]!.enqueue(newAnimal('HasKey'));
    let keySet = false;
    const send = api.createPet;
    api.createPet = async (input) =>
      input.profileId === ids[0] && !keySet ? err('no_key', 'No API key is set for this profile.') : send(input);
    engine.run();
    await engine.whenIdle();
    const [first, second] = ids;
    expect(engine.progress(first!).pausedFor).toBe('no_key');
    expect(engine.progress(second!)).toMatchObject({ pausedFor: null, sent: 1 });

    keySet = true;
    engine.sendPending(first);
    await engine.whenIdle();
    expect(engine.progress(first!)).toMatchObject({ pausedFor: null, sent: 1 });
    expect(api.createCalls.map((c) => c.animal.name).sort()).toEqual(['HasKey', 'NoKey']);
  });

  it('retries after a network error with the same key, when the backoff has passed', async () => {
    const { api, clock, engine, outbox, profileId } = setup();
    const entry = await outbox.enqueue(newAnimal('Rex', '2', 'pending'));
    api.failCreate('offline', 'The service cannot be reached.');
    engine.run();
    await engine.whenIdle();

    expect(await pendingOf(outbox)).toMatchObject([
      { state: 'queued', attempts: 1, failures: 1, nextAttemptAt: clock.now() + 2000, doubtSince: clock.now() },
    ]);
    expect(engine.progress(profileId)).toMatchObject({ active: true, lastError: { code: 'offline' } });
    clock.advance(1999);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);

    clock.advance(1);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(2);
    expect(api.createCalls[1]?.idempotencyKey).toBe(entry.idempotencyKey);
    // The outcome was unknown, so the engine looked for the animal first (and found none).
    expect(api.listCalls).toEqual([{ profileId, query: { limit: 100, status: 'pending' } }]);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', attempts: 2 }]);
  });

  it('backs off exponentially and honours Retry-After for rate limits', async () => {
    const { api, clock, engine, outbox } = setup();
    await outbox.enqueue(newAnimal('Rex'));
    api.failCreate('server_error', 'boom', { status: 503 }).failCreate('server_error', 'boom', { status: 503 });
    api.failCreate('rate_limited', 'slow down', { status: 429, retryAfterMs: 30_000 });
    const start = clock.now();
    engine.run();
    await engine.whenIdle();
    expect(clock.pendingTimers()).toEqual([start + 2000]);
    clock.advance(2000);
    await engine.whenIdle();
    expect(clock.pendingTimers()).toEqual([start + 2000 + 4000]);
    clock.advance(4000);
    await engine.whenIdle();
    expect(clock.pendingTimers()).toEqual([start + 6000 + 30_000]);
    clock.advance(30_000);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(4);
    expect(new Set(api.createCalls.map((c) => c.idempotencyKey)).size).toBe(1);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent' }]);
  });

  it('connectivity back (wake) sends at once without waiting for the backoff', async () => {
    const { api, engine, outbox, profileId } = setup();
    await outbox.enqueue(newAnimal('Rex'));
    api.failCreate('offline', 'The service could not be reached.', { notSent: true });
    engine.run();
    await engine.whenIdle();
    engine.retryEarly(profileId);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(2);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent' }]);
  });

  it('resends an entry found in `sending` at start with its same key', async () => {
    const { api, engine, outbox } = setup();
    const entry = await outbox.enqueue(newAnimal('Rex', '3'));
    await outbox.markSending(entry.localId); // the app closed while this was on its way
    engine.run();
    await engine.whenIdle();
    // No status given: the service chose one, so every status is read, and the unfiltered list.
    expect(api.listCalls.map((call) => call.query)).toEqual([
      { limit: 100, status: 'available' },
      { limit: 100, status: 'pending' },
      { limit: 100, status: 'sold' },
      { limit: 100 },
    ]);
    expect(api.createCalls.map((c) => c.idempotencyKey)).toEqual([entry.idempotencyKey]);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', attempts: 2 }]);
  });
});
