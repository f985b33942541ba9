import { afterEach, describe, expect, it } from 'vitest';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { openProfileDb, type ProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { OutboxStateError } from '../../../src/storage/outbox-records';
import {
  animal,
  appError,
  entriesOf,
  FakeClock,
  freshDb,
  MemorySafetyCopy,
  newAnimal,
  pendingOf,
} from '../support/test-helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Outbox', () => {
  let close = () => {};
  afterEach(() => close());

  function setup(): { db: ProfileDb; profileId: string; clock: FakeClock; outbox: Outbox } {
    const fresh = freshDb();
    close = fresh.close;
    const clock = new FakeClock();
    return {
      db: fresh.db,
      profileId: fresh.profileId,
      clock,
      outbox: new Outbox(fresh.db, clock, new MemorySafetyCopy()),
    };
  }

  it('stores an entered animal durably: committed and listed, also by a new connection', async () => {
    const { profileId, clock, outbox, db } = setup();
    const entry = await outbox.enqueue(newAnimal('Rex', '7', 'available'));
    expect(entry).toMatchObject({
      animal: { name: 'Rex', categoryId: '7', status: 'available' },
      state: 'queued',
      attempts: 0,
      createdAt: clock.now(),
      lastError: null,
      serverId: null,
      nextAttemptAt: null,
      failures: 0,
      doubtSince: null,
      check: null,
      notOurs: [],
    });
    expect(entry.idempotencyKey).toMatch(UUID);
    expect(entry.localId).not.toBe(entry.idempotencyKey);

    db.close();
    close();
    const reopened = openProfileDb(profileId);
    const listed = await entriesOf(new Outbox(reopened, clock, new MemorySafetyCopy()));
    expect(listed).toEqual([entry]);
  });

  it('keeps creation order even when entries share a millisecond', async () => {
    const { outbox } = setup();
    for (const name of ['A', 'B', 'C', 'D', 'E']) await outbox.enqueue(newAnimal(name));
    expect((await entriesOf(outbox)).map((e) => e.animal.name)).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('reads a row that fails the schema without moving it; setAside moves it to the set-aside table, never dropping it', async () => {
    const { db, outbox, clock } = setup();
    const good = await outbox.enqueue(newAnimal('Good'));
    const broken = { localId: 'broken-1', idempotencyKey: 'not-a-uuid', animal: { name: 'X' }, state: 'lost', seq: 99 };
    await db.outbox.put(broken as never);

    // A read is a read (usable inside liveQuery): the row is reported, and still there.
    const read = await outbox.readAll();
    expect(read.entries).toEqual([good]);
    expect(read.unreadable).toMatchObject([{ key: 'broken-1', raw: broken }]);
    expect(read.unreadable[0]?.reason).toMatch(/idempotencyKey/);
    expect(await db.outbox.get('broken-1')).toBeDefined();

    await outbox.setAside(read.unreadable);
    expect(await db.outbox.get('broken-1')).toBeUndefined();
    const setAside = await db.setAside.toArray();
    expect(setAside).toMatchObject([{ id: 'outbox:broken-1', table: 'outbox', raw: broken, at: clock.now() }]);
    expect(setAside[0]?.reason).toMatch(/idempotencyKey/);
    expect(setAside[0]?.reason).toMatch(/state/);
    expect(await outbox.readAll()).toEqual({ entries: [good], unreadable: [] });
  });

  it('setAside leaves a row that was rewritten valid meanwhile', async () => {
    const { db, outbox } = setup();
    const good = await outbox.enqueue(newAnimal('Good'));
    await db.outbox.put({ ...good, seq: 1, state: 'lost' } as never);
    const { unreadable } = await outbox.readAll();
    await db.outbox.put({ ...good, seq: 1 });
    await outbox.setAside(unreadable);
    expect(await entriesOf(outbox)).toEqual([good]);
    expect(await db.setAside.count()).toBe(0);
  });

  it('does not mark a discarded entry as sending (a pass read it before staff discarded it)', async () => {
    const { outbox } = setup();
    const entry = await outbox.enqueue(newAnimal('Rex'));
    await outbox.discard(entry.localId);
    expect(await outbox.markSending(entry.localId)).toBeNull();
    expect(await entriesOf(outbox)).toEqual([]);
  });

  it('walks an entry through sending, retry and sent, caching the animal with it', async () => {
    const { db, outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    await outbox.markSending(entry.localId);
    expect(await pendingOf(outbox)).toMatchObject([{ state: 'sending', attempts: 1 }]);

    const doubt = clock.now();
    await outbox.markRetry(entry.localId, appError('timeout'), clock.now() + 2000, doubt);
    clock.advance(10);
    await outbox.markRetry(entry.localId, appError('rate_limited'), clock.now() + 4000, null);
    // The doubt opened by the first failure stays open; every failure counts for the backoff.
    expect(await pendingOf(outbox)).toMatchObject([
      { state: 'queued', attempts: 1, failures: 2, nextAttemptAt: clock.now() + 4000, doubtSince: doubt },
    ]);

    clock.advance(5000);
    await outbox.markSent(entry.localId, animal('9007199254740993', 'Rex', '2', 'available'));
    const [sent] = await entriesOf(outbox);
    expect(sent).toMatchObject({
      state: 'sent',
      serverId: '9007199254740993',
      lastError: null,
      failures: 0,
      doubtSince: null,
    });
    expect(sent?.idempotencyKey).toBe(entry.idempotencyKey);
    expect(await pendingOf(outbox)).toEqual([]);
    const cached = await new AnimalCache(db).read('9007199254740993');
    expect(cached).toMatchObject({ animal: { name: 'Rex' }, confirmedAt: clock.now() });
  });

  it('gives an edited needs_attention entry a new idempotency key and queues it again', async () => {
    const { outbox } = setup();
    const entry = await outbox.enqueue(newAnimal('Rex', '2'));
    await expect(outbox.edit(entry.localId, newAnimal('Rex', '3'))).rejects.toBeInstanceOf(OutboxStateError);
    await outbox.markNeedsAttention(entry.localId, appError('invalid', 'categoryId unknown', { status: 400 }));
    expect(await entriesOf(outbox)).toMatchObject([
      { state: 'needs_attention', lastError: { message: 'categoryId unknown' } },
    ]);

    const edited = await outbox.edit(entry.localId, newAnimal('Rex', '3'));
    expect(edited).toMatchObject({
      localId: entry.localId,
      state: 'queued',
      animal: { categoryId: '3' },
      lastError: null,
    });
    expect(edited.idempotencyKey).toMatch(UUID);
    expect(edited.idempotencyKey).not.toBe(entry.idempotencyKey);
    expect(await pendingOf(outbox)).toEqual([edited]);
  });

  it('asks staff about an entry in doubt: “it is this one” adopts the candidate, nothing else', async () => {
    const { db, outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Kitten', '2'));
    const theirs = animal('41', 'Kitten', '2', 'available');
    const other = animal('40', 'Kitten', '2', 'available');
    await outbox.markRetry(entry.localId, appError('offline'), clock.now() + 2000, clock.now());
    await outbox.markCheckNeeded(entry.localId, { candidates: [theirs, other], complete: true, at: clock.now() });
    expect(await entriesOf(outbox)).toMatchObject([
      { state: 'check_needed', check: { candidates: [theirs, other], complete: true }, nextAttemptAt: null },
    ]);
    await expect(outbox.confirmMatch(entry.localId, '999')).rejects.toBeInstanceOf(OutboxStateError);
    await outbox.confirmMatch(entry.localId, '41');
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent', serverId: '41', check: null, doubtSince: null }]);
    expect((await new AnimalCache(db).read('41'))?.animal).toEqual(theirs);
    // Answered once (e.g. in another window): a second answer is refused, not applied twice.
    await expect(outbox.confirmMatch(entry.localId, '41')).rejects.toBeInstanceOf(OutboxStateError);
    await expect(outbox.sendMine(entry.localId)).rejects.toBeInstanceOf(OutboxStateError);
  });

  it('“send mine” queues the entry again with the same key and remembers the candidates as not ours', async () => {
    const { outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Kitten', '2'));
    await outbox.markRetry(entry.localId, appError('offline'), clock.now() + 2000, clock.now());
    await outbox.markCheckNeeded(entry.localId, { candidates: [animal('41', 'Kitten', '2')], complete: true, at: 1 });
    await outbox.sendMine(entry.localId);
    expect(await pendingOf(outbox)).toEqual([
      expect.objectContaining({
        state: 'queued',
        idempotencyKey: entry.idempotencyKey,
        notOurs: ['41'],
        check: null,
        doubtSince: null,
        failures: 0,
        nextAttemptAt: null,
      }),
    ]);
  });

  it('discards an entry and prunes sent entries after 24 hours', async () => {
    const { outbox, clock } = setup();
    const a = await outbox.enqueue(newAnimal('A'));
    const b = await outbox.enqueue(newAnimal('B'));
    await outbox.markSent(a.localId, animal('1', 'A'));
    await outbox.discard(b.localId);
    expect(await outbox.pruneSent()).toBe(0);
    clock.advance(24 * 60 * 60 * 1000 + 1);
    expect(await outbox.pruneSent()).toBe(1);
    expect(await entriesOf(outbox)).toEqual([]);
  });
});
