/**
 * Two copies of every animal (issue 20): the outbox writes the safety copy before IndexedDB and
 * tells it of staff's discards and answers first; restoreFromSafetyCopy puts back what IndexedDB
 * lost and nothing else; TwoCopies says so to staff, and hands a database the browser cannot
 * open to the app.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Outbox } from '../../../src/storage/outbox';
import { TwoCopies } from '../../../src/two-copies/two-copies.svelte';
import { restoreFromSafetyCopy } from '../../../src/two-copies/restore';
import { SafetyCopyError } from '../../../src/two-copies/safety-copy-port';
import { StorageHealthStore } from '../../../src/two-copies/storage-health.svelte';
import { animal, appError, entriesOf, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

const closes: Array<() => void> = [];
afterEach(() => {
  for (const close of closes.splice(0)) close();
});

function setup() {
  const fresh = freshDb();
  closes.push(fresh.close);
  const clock = new FakeClock();
  const copy = new MemorySafetyCopy();
  return { ...fresh, clock, copy, outbox: new Outbox(fresh.db, clock, copy) };
}

describe('the outbox keeps the safety copy first', () => {
  it('an entry is in the safety copy before IndexedDB has it, with the same ids', async () => {
    const { db, copy, outbox } = setup();
    const seen: number[] = [];
    const keep = copy.keep.bind(copy);
    copy.keep = async (entries) => {
      seen.push(await db.outbox.count());
      await keep(entries);
    };
    const entry = await outbox.enqueue(newAnimal('Olive', '7'));
    expect(seen).toEqual([0]);
    expect(copy.entries.get(entry.localId)).toMatchObject({
      idempotencyKey: entry.idempotencyKey,
      animal: { name: 'Olive', categoryId: '7' },
      createdAt: entry.createdAt,
    });
    expect(await db.outbox.count()).toBe(1);
  });

  it('when the safety copy cannot be written (a full disk) nothing is kept anywhere', async () => {
    const { db, copy, outbox } = setup();
    copy.failWith = "This computer's safety copy could not be written: the disk is full.";
    await expect(outbox.enqueue(newAnimal('No room'))).rejects.toBeInstanceOf(SafetyCopyError);
    expect(await db.outbox.count()).toBe(0);
    expect(copy.entries.size).toBe(0);
  });

  it('discard, "it is this one" and an edit reach the safety copy before IndexedDB', async () => {
    const { copy, outbox, clock } = setup();
    const [gone, mine, edited] = [
      await outbox.enqueue(newAnimal('Gone')),
      await outbox.enqueue(newAnimal('Mine')),
      await outbox.enqueue(newAnimal('Typo')),
    ];
    await outbox.discard(gone.localId);
    await outbox.markCheckNeeded(mine.localId, { candidates: [animal('41', 'Mine')], complete: true, at: clock.now() });
    await outbox.confirmMatch(mine.localId, '41');
    await outbox.markNeedsAttention(edited.localId, appError('invalid', 'bad', { status: 400 }));
    const fixed = await outbox.edit(edited.localId, newAnimal('Fixed'));
    expect(copy.log).toEqual([
      'keep Gone',
      'keep Mine',
      'keep Typo',
      'settle Gone discarded',
      'settle Mine acknowledged',
      'keep Fixed',
    ]);
    expect(copy.entries.get(mine.localId)?.settled).toEqual({ outcome: 'acknowledged', id: '41' });
    expect(copy.entries.get(edited.localId)).toMatchObject({ idempotencyKey: fixed.idempotencyKey, settled: null });
    // a discard the safety copy refuses leaves the entry where it is
    copy.failWith = 'disk full';
    await expect(outbox.discard(fixed.localId)).rejects.toBeInstanceOf(SafetyCopyError);
    expect((await entriesOf(outbox)).map((e) => e.animal.name)).toEqual(['Mine', 'Fixed']);
  });
});

describe('restoring from the safety copy', () => {
  it('puts back what IndexedDB lost, with its own keys, in the order entered, and nothing else', async () => {
    const { db, copy, outbox, clock } = setup();
    const entries = [];
    for (const name of ['Olive', 'Basil', 'Sage', 'Thyme']) entries.push(await outbox.enqueue(newAnimal(name, '7')));
    await copy.settle(entries[3]!.localId, { outcome: 'discarded' });
    await db.outbox.clear();

    clock.advance(60_000);
    const report = await restoreFromSafetyCopy(db, copy, clock);
    expect(report.restored.map((r) => r.name)).toEqual(['Olive', 'Basil', 'Sage']);
    const restored = await entriesOf(outbox);
    expect(restored.map((e) => [e.animal.name, e.idempotencyKey, e.state, e.createdAt])).toEqual(
      entries.slice(0, 3).map((e) => [e.animal.name, e.idempotencyKey, 'queued', e.createdAt]),
    );
    // a second look finds nothing more to do
    expect((await restoreFromSafetyCopy(db, copy, clock)).restored).toEqual([]);
  });

  it('an entry a send of which may have reached the service comes back in doubt, never to be sent blindly', async () => {
    const { db, copy, outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Maybe sent'));
    copy.entries.get(entry.localId)!.doubtSince = clock.now() + 5;
    await db.outbox.clear();
    await restoreFromSafetyCopy(db, copy, clock);
    expect((await entriesOf(outbox))[0]).toMatchObject({ state: 'queued', doubtSince: clock.now() + 5 });
  });

  it('copies an entry in doubt into the safety copy in doubt: lost from IndexedDB later, it is never sent blindly', async () => {
    const { db, copy, outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Sent, unheard'));
    await outbox.markSending(entry.localId); // its send went out...
    // ...the core heard the service create it and settled it, but the window died before it heard.
    await copy.settle(entry.localId, { outcome: 'acknowledged', id: '41' });
    clock.advance(60_000);
    await restoreFromSafetyCopy(db, copy, clock); // the app starts again: IndexedDB's entry is kept again
    await db.outbox.clear(); // then the browser loses IndexedDB
    await restoreFromSafetyCopy(db, copy, clock);
    const [back] = await entriesOf(outbox);
    expect(back).toMatchObject({ localId: entry.localId, idempotencyKey: entry.idempotencyKey, state: 'queued' });
    expect(back?.doubtSince).not.toBeNull();
  });

  it('copies an entry staff were asked about into the safety copy in doubt: their answer cut short, it is never sent blindly', async () => {
    // Staff answered "it is this one": the safety copy acknowledged it, and the app died before
    // IndexedDB heard (the entry still "check needed", which records no doubt time of its own).
    // Kept again without a doubt, it came back fresh once IndexedDB was lost, and was sent a
    // second time (found by the event-day simulator's long run, issue 33).
    const { db, copy, outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Asked about'));
    await outbox.markSending(entry.localId);
    await outbox.markCheckNeeded(entry.localId, { candidates: [animal('41', 'Asked about')], complete: true, at: 1 });
    await copy.settle(entry.localId, { outcome: 'acknowledged', id: '41' });
    clock.advance(60_000);
    await restoreFromSafetyCopy(db, copy, clock); // the app starts again: IndexedDB's entry is kept again
    await db.outbox.clear(); // then the browser loses IndexedDB
    await restoreFromSafetyCopy(db, copy, clock);
    const [back] = await entriesOf(outbox);
    expect(back).toMatchObject({ localId: entry.localId, idempotencyKey: entry.idempotencyKey, state: 'queued' });
    expect(back?.doubtSince).not.toBeNull();
  });

  it('settles in the safety copy what IndexedDB has as sent, and keeps there what only IndexedDB had', async () => {
    const { db, copy, outbox, clock } = setup();
    const sent = await outbox.enqueue(newAnimal('Sent'));
    await outbox.markSent(sent.localId, animal('77', 'Sent'));
    const older = await new Outbox(db, clock, new MemorySafetyCopy()).enqueue(newAnimal('Before the copy'));
    const report = await restoreFromSafetyCopy(db, copy, clock);
    expect(report).toMatchObject({ restored: [], settled: 1, copied: 1 });
    expect(copy.entries.get(sent.localId)?.settled).toEqual({ outcome: 'acknowledged', id: '77' });
    expect(copy.entries.get(older.localId)).toMatchObject({ animal: { name: 'Before the copy' }, settled: null });
  });

  it('never puts back an acknowledged entry, even when IndexedDB lost it', async () => {
    const { db, copy, outbox, clock } = setup();
    const entry = await outbox.enqueue(newAnimal('Acked'));
    await copy.settle(entry.localId, { outcome: 'acknowledged', id: '5' });
    await db.outbox.clear();
    expect((await restoreFromSafetyCopy(db, copy, clock)).restored).toEqual([]);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('TwoCopies', () => {
  it('says how many animals came back, names them, records it for Diagnostics and asks for a send', async () => {
    const { db, copy, outbox, clock, profileId } = setup();
    for (const name of ['Olive', 'Basil', 'Sage']) await outbox.enqueue(newAnimal(name));
    await db.outbox.clear();
    const health = new StorageHealthStore();
    const hooks = { unusable: vi.fn(), restored: vi.fn() };
    const storage = new TwoCopies(profileId, db, copy, health, hooks, clock);
    await storage.start();
    expect(storage.notice?.text).toContain(
      "3 animals restored from this computer's safety copy (Olive, Basil, Sage). They are sent as usual.",
    );
    expect(hooks.restored).toHaveBeenCalledOnce();
    expect(health.events).toEqual([
      { kind: 'restored', profileId, at: clock.now(), names: ['Olive', 'Basil', 'Sage'] },
    ]);
    storage.dismiss();
    expect(storage.notice).toBeNull();
    storage.stop();
  });

  it('says in plain words that animals of the earlier version were recovered, apart from any the browser lost', async () => {
    const { db, copy, outbox, clock, profileId } = setup();
    for (const name of ['Olive', 'Basil', 'Sage', 'Lost one']) await outbox.enqueue(newAnimal(name));
    // Olive, Basil and Sage: handed over by the browser host from the earlier version's address.
    for (const entry of [...copy.entries.values()].slice(0, 3)) entry.fromEarlierVersion = true;
    await db.outbox.clear();
    const health = new StorageHealthStore();
    const hooks = { unusable: vi.fn(), restored: vi.fn() };
    const storage = new TwoCopies(profileId, db, copy, health, hooks, clock);
    await storage.start();
    expect(storage.notice?.text).toBe(
      "The browser's storage on this computer lost animals of this profile (it was cleared or damaged). " +
        "1 animal restored from this computer's safety copy (Lost one). They are sent as usual. " +
        '3 animals from the earlier version were recovered (Olive, Basil, Sage) and will be sent. ' +
        "This version opens at a new address, where the browser could not see the earlier version's queue.",
    );
    expect(hooks.restored).toHaveBeenCalledOnce();
    expect(health.events).toEqual([
      { kind: 'restored', profileId, at: clock.now(), names: ['Lost one', 'Olive', 'Basil', 'Sage'] },
    ]);
    storage.stop();
    // a reload says it again (kept in the profile's meta), with the earlier ones alone when nothing was lost
    await db.meta.put({ key: 'restored-from-safety-copy', value: { at: clock.now(), names: [], earlier: ['Olive'] } });
    const again = new TwoCopies(profileId, db, copy, new StorageHealthStore(), hooks, clock);
    await again.start();
    expect(again.notice?.text).toBe(
      '1 animal from the earlier version was recovered (Olive) and will be sent. ' +
        "This version opens at a new address, where the browser could not see the earlier version's queue.",
    );
    again.stop();
  });

  it('checks again when the browser closes the database under the app (its data cleared)', async () => {
    const { db, copy, outbox, clock, profileId } = setup();
    const health = new StorageHealthStore();
    const storage = new TwoCopies(profileId, db, copy, health, { unusable: vi.fn(), restored: vi.fn() }, clock);
    await storage.start();
    await outbox.enqueue(newAnimal('Olive'));
    await db.outbox.clear();
    db.on.close.fire(new Event('close'));
    await vi.waitFor(() => expect(storage.notice?.text).toContain('1 animal restored'));
    expect(health.events.map((event) => event.kind)).toEqual(['lost', 'restored']);
    storage.stop();
  });

  it('hands a database the browser cannot open to the app, and says nothing is lost', async () => {
    const { db, copy, clock, profileId } = setup();
    vi.spyOn(db, 'open').mockRejectedValue(new Error('UnknownError: Internal error opening backing store'));
    const health = new StorageHealthStore();
    const hooks = { unusable: vi.fn(), restored: vi.fn() };
    const storage = new TwoCopies(profileId, db, copy, health, hooks, clock);
    await storage.start();
    expect(hooks.unusable).toHaveBeenCalledWith('UnknownError: Internal error opening backing store');
    expect(health.events).toMatchObject([{ kind: 'unusable', profileId }]);
    storage.stop();
  });

  it('in the window’s memory, it fills the queue from the safety copy and says the browser storage cannot be used', async () => {
    const { copy, outbox, clock, db: real, profileId } = setup();
    await outbox.enqueue(newAnimal('Kept'));
    const { openMemoryProfileDb } = await import('../../../src/storage/db');
    const memory = await openMemoryProfileDb(profileId, 'QuotaExceededError');
    closes.push(() => memory.close());
    expect(memory).not.toBe(real);
    const storage = new TwoCopies(
      profileId,
      memory,
      copy,
      new StorageHealthStore(),
      { unusable: vi.fn(), restored: vi.fn() },
      clock,
    );
    await storage.start();
    expect(storage.notice).toMatchObject({ tone: 'error' });
    expect(storage.notice?.text).toContain("This computer's browser storage cannot be used (QuotaExceededError)");
    expect((await entriesOf(new Outbox(memory, clock))).map((e) => e.animal.name)).toEqual(['Kept']);
    storage.stop();
  });
});

describe('StorageHealthStore', () => {
  it('asks the browser to keep the data and says whether it does', async () => {
    const health = new StorageHealthStore();
    expect(health.persistence).toBe('unknown');
    const refused = { persisted: vi.fn(async () => false), persist: vi.fn(async () => false) };
    await health.requestPersistence(refused);
    expect(refused.persist).toHaveBeenCalledOnce();
    expect(health.persistence).toBe('may_be_cleared');
    const granted = { persisted: vi.fn(async () => false), persist: vi.fn(async () => true) };
    await health.requestPersistence(granted);
    expect(health.persistence).toBe('kept');
    await health.requestPersistence({ persisted: async () => Promise.reject(new Error('no')), persist: vi.fn() });
    expect(health.persistence).toBe('unknown');
  });
});
