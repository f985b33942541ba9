/**
 * One profile's sync engine on the fake clock and the fake API, with the profile's outbox beside
 * it over a fresh database: what the engine's own tests start from. The engine is stopped and the
 * database closed when the test ends. `random` decides the backoff's jitter (0: each draw its
 * ceiling, 2 s after the first failure).
 */
import { onTestFinished } from 'vitest';
import { openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { FakeApi, FakeClock, freshDb, MemorySafetyCopy } from './test-helpers';

export function engineOnFakeClock(random: () => number = () => 0) {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const { db, profileId, close } = freshDb();
  const engine = new SyncEngine({ api, db: openProfileDb, profileIds: () => [profileId], clock, random });
  onTestFinished(() => {
    engine.stop();
    close();
  });
  return { clock, api, engine, db, profileId, outbox: new Outbox(db, clock, new MemorySafetyCopy()) };
}
