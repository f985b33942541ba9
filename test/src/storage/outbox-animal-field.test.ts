// An outbox entry's animal is `animal` everywhere (issue 32); rows stored by an earlier version hold
// it under `pet`, and database version 9's upgrade renames it (db.ts, the one place that knows the
// old name). Such a row still reads, sends and shows.
import { cleanup, render, screen } from '@testing-library/svelte';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import QueuedRows from '../../../src/list/QueuedRows.svelte';
import { closeProfileDb, DB_NAME_PREFIX, openProfileDb, SCHEMA_V8 } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { SyncEngine } from '../../../src/sync/sync-engine';
import { entriesOf, FakeApi, FakeClock, MemorySafetyCopy, uniqueProfileId } from '../support/test-helpers';

describe('an outbox row stored with its animal under `pet` (before version 9)', () => {
  const profileId = uniqueProfileId();
  afterEach(() => {
    cleanup();
    closeProfileDb(profileId);
  });

  it('reads, sends and shows as an entry with `animal`', async () => {
    const earlier = new Dexie(`${DB_NAME_PREFIX}${profileId}`);
    earlier.version(8).stores(SCHEMA_V8);
    await earlier.table('outbox').put({
      localId: 'earlier-1',
      idempotencyKey: '0b5a5d3e-1c1f-4f55-9d7e-3c7d1f4b2a10',
      pet: { name: 'Biscuit', categoryId: '3', status: 'available' },
      createdAt: 1,
      updatedAt: 1,
      state: 'queued',
      attempts: 0,
      lastError: null,
      serverId: null,
      nextAttemptAt: null,
      failures: 0,
      doubtSince: null,
      check: null,
      notOurs: [],
      seq: 1,
    });
    earlier.close();

    const clock = new FakeClock();
    const db = openProfileDb(profileId);
    const outbox = new Outbox(db, clock, new MemorySafetyCopy());
    const [entry] = await entriesOf(outbox);
    expect(entry).toMatchObject({ localId: 'earlier-1', animal: { name: 'Biscuit', categoryId: '3' } });
    expect(entry).not.toHaveProperty('pet');
    expect(await db.setAside.count()).toBe(0);

    render(QueuedRows, { entries: [entry!] });
    expect(screen.getByTestId('queued-row').textContent).toContain('Biscuit');

    const api = new FakeApi(clock);
    const engine = new SyncEngine({ api, db: openProfileDb, profileIds: () => [profileId], clock, random: () => 0 });
    engine.run();
    await engine.whenIdle();
    engine.stop();
    expect(api.createCalls).toEqual([
      expect.objectContaining({
        idempotencyKey: '0b5a5d3e-1c1f-4f55-9d7e-3c7d1f4b2a10',
        animal: { name: 'Biscuit', categoryId: '3', status: 'available' },
      }),
    ]);
  });
});
