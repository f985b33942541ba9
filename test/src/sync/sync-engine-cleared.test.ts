/**
 * The sync progress follows the outbox as it is stored, not only the engine's own steps: when the
 * browser clears the site's data (every connection closed by force, the database gone), the
 * progress is recounted at once, also while a pass is busy checking the lists for an entry in
 * doubt, and while the engine waits to retry (a read the browser refuses just after the clear is
 * tried again). Found by the event-day simulator (docs/simulation.md:
 * chunk 52, day 17 of the 10,000-day run): the window said "Sending 1 of 1" with IndexedDB empty.
 */
import forceCloseDatabase from 'fake-indexeddb/lib/forceCloseDatabase';
import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../src/shared/app-api/result';
import { type ProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { type SyncProgress } from '../../../src/sync/sync-engine';
import { entriesOf, newAnimal } from '../support/test-helpers';
import { engineOnFakeClock } from '../support/engine-on-fake-clock';

function setup() {
  const started = engineOnFakeClock();
  const events: SyncProgress[] = [];
  started.engine.onProgress((progress) => events.push(progress));
  return { ...started, events };
}

/** What Chromium does when staff clear the site's data: the connection closed by force, the database deleted. */
async function clearSiteData(db: ProfileDb): Promise<void> {
  forceCloseDatabase(db.backendDB());
  await new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(db.name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error('deleteDatabase failed'));
  });
}

/** What the indicator says of sending (SyncIndicator.svelte: "Sending n of m" while this holds). */
const saysSending = (p: SyncProgress) => p.active && p.total > 0 && p.sent < p.total;

describe('SyncEngine progress when the outbox changes under it', () => {
  it('says nothing is being sent once the site data is cleared while a pass checks the lists for an entry in doubt', async () => {
    const { api, engine, db, profileId, outbox } = setup();
    const entry = await outbox.enqueue(newAnimal('Bella'));
    await outbox.markSending(entry.localId); // the sending window closed: its outcome is unknown
    let answerList!: () => void;
    const listHeld = new Promise<void>((resolve) => (answerList = resolve));
    api.listAnswers.push(async () => {
      await listHeld;
      return ok({ animals: [], fetchedAt: 0 });
    });

    engine.run();
    await vi.waitFor(() => expect(api.listCalls).toHaveLength(1));
    expect(saysSending(engine.progress(profileId))).toBe(true); // true here: Bella waits

    await clearSiteData(db);
    expect(await entriesOf(outbox)).toEqual([]);
    await vi.waitFor(() => expect(engine.progress(profileId)).toMatchObject({ active: false, total: 0, sent: 0 }));

    answerList();
    await engine.whenIdle();
    expect(engine.progress(profileId)).toMatchObject({ active: false, total: 0, sent: 0, allSentAt: null });
    expect(api.createCalls).toEqual([]); // nothing was there to send
  });

  it('says nothing is being sent once the site data is cleared while the engine waits to retry', async () => {
    const { api, clock, engine, events, db, profileId, outbox } = setup();
    await outbox.enqueue(newAnimal('Rex'));
    api.failCreate('offline', 'The service could not be reached.', { notSent: true });

    engine.run();
    await engine.whenIdle();
    expect(clock.pendingTimers()).toHaveLength(1); // the retry
    expect(saysSending(engine.progress(profileId))).toBe(true);
    const heard = events.length;

    await clearSiteData(db);
    await vi.waitFor(() => expect(engine.progress(profileId)).toMatchObject({ active: false, total: 0, sent: 0 }));
    // The windows that show the sender's progress hear it too.
    expect(events.slice(heard).at(-1)).toMatchObject({ profileId, active: false, total: 0 });
  });

  it('tries the recount again when the browser still refuses the new connection right after the clear', async () => {
    const { api, clock, engine, db, profileId, outbox } = setup();
    await outbox.enqueue(newAnimal('Rex'));
    api.failCreate('offline', 'The service could not be reached.', { notSent: true });
    engine.run();
    await engine.whenIdle();
    // Chromium aborts an open made while it deletes the database (storage-loss.spec.ts saw it).
    const readAll = vi
      .spyOn(Outbox.prototype, 'readAll')
      .mockRejectedValueOnce(new Error('DatabaseClosedError: AbortError The connection was closed.'));

    await clearSiteData(db);
    await vi.waitFor(() => expect(readAll).toHaveBeenCalledTimes(1));
    expect(saysSending(engine.progress(profileId))).toBe(true); // not read yet
    clock.advance(200);
    await vi.waitFor(() => expect(engine.progress(profileId)).toMatchObject({ active: false, total: 0, sent: 0 }));
    expect(readAll).toHaveBeenCalledTimes(2);
  });

  it('counts what is stored again when entries come back after the clear (restored from the safety copy)', async () => {
    const { engine, db, profileId, outbox, api } = setup();
    const entry = await outbox.enqueue(newAnimal('Bella'));
    await outbox.markSending(entry.localId);
    let answerList!: () => void;
    const listHeld = new Promise<void>((resolve) => (answerList = resolve));
    api.listAnswers.push(async () => {
      await listHeld;
      return ok({ animals: [], fetchedAt: 0 });
    });
    engine.run();
    await vi.waitFor(() => expect(api.listCalls).toHaveLength(1));

    await clearSiteData(db);
    await vi.waitFor(() => expect(engine.progress(profileId).total).toBe(0));
    // The restore puts Bella back and hands the engine the work (TwoCopiesHooks.restored).
    await outbox.enqueue(newAnimal('Bella'));
    engine.sendPending(profileId);
    await vi.waitFor(() => expect(engine.progress(profileId)).toMatchObject({ active: true, total: 1, sent: 0 }));

    answerList();
    await engine.whenIdle();
    expect(engine.progress(profileId)).toMatchObject({ active: false, total: 1, sent: 1 });
  });
});
