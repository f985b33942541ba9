import { afterEach, describe, expect, it } from 'vitest';
import { openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { entriesOf, FakeClock, freshDb, MemorySafetyCopy, newAnimal } from '../support/test-helpers';

describe('Outbox.enqueueMany (a spreadsheet import)', () => {
  let close = () => {};
  afterEach(() => close());

  it('adds every animal in the given order, each with its own idempotency key, durably', async () => {
    const fresh = freshDb();
    close = fresh.close;
    const outbox = new Outbox(fresh.db, new FakeClock(), new MemorySafetyCopy());
    await outbox.enqueue(newAnimal('Before'));
    const animals = Array.from({ length: 200 }, (_, i) => newAnimal(`Animal ${i}`, String(i + 1)));
    const entries = await outbox.enqueueMany(animals);
    expect(entries.map((entry) => entry.animal)).toEqual(animals);
    expect(new Set(entries.map((entry) => entry.idempotencyKey)).size).toBe(200);
    expect(new Set(entries.map((entry) => entry.localId)).size).toBe(200);

    // A new connection (as after a restart) reads them back in the same order, after the earlier one.
    fresh.db.close();
    close();
    const reopened = openProfileDb(fresh.profileId);
    close = () => reopened.close();
    const listed = await entriesOf(new Outbox(reopened, undefined, new MemorySafetyCopy()));
    expect(listed.map((entry) => entry.animal.name)).toEqual(['Before', ...animals.map((p) => p.name)]);
    expect(listed.every((entry) => entry.state === 'queued')).toBe(true);
  });
});
