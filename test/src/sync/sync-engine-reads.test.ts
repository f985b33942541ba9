/** A sync pass reads the outbox once (not once per entry sent), and still respects staff's changes. */
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ok } from '../../../src/shared/app-api/result';
import Dexie from 'dexie';
import { closeProfileDb, openProfileDb, profileDbHere } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { FakeApi, FakeClock, MemorySafetyCopy, uniqueProfileId } from '../support/test-helpers';
import { entriesOf, newAnimal } from '../support/test-helpers';
import { engineOnFakeClock } from '../support/engine-on-fake-clock';

afterEach(() => {
  vi.restoreAllMocks();
});

const setup = () => engineOnFakeClock();

describe('SyncEngine reads', () => {
  it('reads the outbox table once for a pass that sends 30 entries', async () => {
    const { api, engine, db, outbox } = setup();
    await outbox.enqueueMany(Array.from({ length: 30 }, (_, i) => newAnimal(`Animal ${i}`)));
    // Every way Dexie reads many rows of the table (`toArray` goes through `toCollection`; a row's own
    // update reads it by key, not counted).
    const scans = [vi.spyOn(db.outbox, 'toCollection'), vi.spyOn(db.outbox, 'bulkGet'), vi.spyOn(db.outbox, 'orderBy')];
    const readAll = vi.spyOn(Outbox.prototype, 'readAll');

    engine.run();
    await engine.whenIdle();

    expect(api.createCalls).toHaveLength(30);
    expect(readAll).toHaveBeenCalledTimes(1);
    expect(scans.reduce((sum, spy) => sum + spy.mock.calls.length, 0)).toBe(1);
    expect((await entriesOf(outbox)).every((entry) => entry.state === 'sent')).toBe(true);
  });

  it('does not send an entry staff discarded after the pass read the outbox', async () => {
    const { api, engine, outbox } = setup();
    const [, second] = await outbox.enqueueMany([newAnimal('First'), newAnimal('Second'), newAnimal('Third')]);
    api.createAnswers.push(async (input, fake) => {
      await outbox.discard(second!.localId); // while the first is being sent
      return ok({ animal: fake.store(input.animal), fetchedAt: 0 });
    });

    engine.run();
    await engine.whenIdle();

    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['First', 'Third']);
    expect((await entriesOf(outbox)).map((entry) => [entry.animal.name, entry.state])).toEqual([
      ['First', 'sent'],
      ['Third', 'sent'],
    ]);
  });
});

describe('SyncEngine: profiles without a database here', () => {
  it('sends the queue of a listed profile with a database here, and opens (so creates) none for one never used', async () => {
    const [used, never] = [uniqueProfileId(), uniqueProfileId()];
    const clock = new FakeClock();
    const api = new FakeApi(clock);
    await new Outbox(openProfileDb(used), clock, new MemorySafetyCopy()).enqueue(newAnimal('Bella'));
    // As createApp wires it (src/app/app-stores.svelte.ts).
    const engine = new SyncEngine({
      api,
      db: openProfileDb,
      hasDb: profileDbHere,
      profileIds: () => [used, never],
      clock,
    });
    const progress: string[] = [];
    engine.onProgress(({ profileId, total }) => progress.push(`${profileId === never ? 'never' : 'used'} ${total}`));
    onTestFinished(async () => {
      engine.stop();
      for (const profileId of [used, never]) {
        closeProfileDb(profileId);
        await Dexie.delete(`adoption-desk.${profileId}`);
      }
    });

    engine.run();
    await engine.whenIdle();

    expect(api.createCalls).toHaveLength(1);
    expect(await Dexie.getDatabaseNames()).toContain(`adoption-desk.${used}`);
    expect(await Dexie.getDatabaseNames()).not.toContain(`adoption-desk.${never}`);
    expect(progress).toContain('never 0'); // its window is told: nothing waits there
  });
});
