/**
 * The update rule inside the app core (issue 21, item 4): the waiting animals it counts are the
 * safety copy's open entries over every profile, those of an earlier run included; a downloaded
 * update may install on close only once they are all sent or discarded; the window reads where
 * updates stand through `updateStatus` and the `update` event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import type { UpdaterPort } from '../../../../electron/core/updates';
import type { SafetyEntry } from '../../../../src/shared/app-api/api';
import type { UpdateStatus } from '../../../../src/shared/app-api/updates';

// The organisation's profiles.json with an update address (updates are off without one).
const PROFILES = join(resolve(import.meta.dirname, '../../../support/updates-resources'), 'profiles.json');

const entry = (name: string): SafetyEntry => ({
  localId: crypto.randomUUID(),
  idempotencyKey: crypto.randomUUID(),
  animal: { name, categoryId: '7' },
  createdAt: 1,
});

describe('updates in the app core', () => {
  let dataDir: string;
  let core: AppCore | null = null;
  let installOnQuit: boolean[];
  let events: UpdateStatus[];

  const start = async (withUpdater = true) => {
    installOnQuit = [];
    events = [];
    const port: UpdaterPort = { check: async () => {}, setInstallOnQuit: (allowed) => installOnQuit.push(allowed) };
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore: new MemorySecretStore(),
      builtIns: { file: PROFILES },
      ...(withUpdater ? { updates: { port, trust: { trusted: true, publisherName: null } } } : {}),
      logError: () => {},
    });
    core.events.subscribe((event, payload) => {
      if (event === 'update') events.push(payload as UpdateStatus);
    });
    return core;
  };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-core-updates-'));
  });
  afterEach(async () => {
    await core?.dispose();
    core = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('outside the installed app: off, and the window is told why', async () => {
    const app = await start(false);
    expect(await app.router.handle('updateStatus', {})).toEqual({
      ok: true,
      data: { state: 'off', reason: 'Updates come with the installed desktop app.' },
    });
  });

  it('installs on close only once every animal kept on this computer is sent or discarded', async () => {
    const app = await start();
    const entries = [entry('Rex'), entry('Mia'), entry('Odin')];
    await app.router.handle('keepEntries', { profileId: 'local', batch: crypto.randomUUID(), complete: true, entries });
    app.updates.downloaded('0.2.0');
    await vi.waitFor(() => expect(app.updates.status()).toEqual({ state: 'ready', version: '0.2.0', waiting: 3 }));
    expect(installOnQuit.at(-1)).toBe(false);
    expect(events.at(-1)).toEqual({ state: 'ready', version: '0.2.0', waiting: 3 });

    await app.router.handle('settleEntry', { profileId: 'local', localId: entries[0]!.localId, outcome: 'discarded' });
    await app.router.handle('settleEntry', {
      profileId: 'local',
      localId: entries[1]!.localId,
      outcome: 'acknowledged',
      id: '42',
    });
    await vi.waitFor(() => expect(app.updates.status()).toMatchObject({ waiting: 1 }));
    expect(installOnQuit.at(-1)).toBe(false);
    await app.router.handle('settleEntry', {
      profileId: 'local',
      localId: entries[2]!.localId,
      outcome: 'acknowledged',
      id: '43',
    });
    await vi.waitFor(() => expect(installOnQuit.at(-1)).toBe(true));
    expect(await app.router.handle('updateStatus', {})).toEqual({
      ok: true,
      data: { state: 'ready', version: '0.2.0', waiting: 0 },
    });
  });

  it('counts the animals an earlier run left in the safety copy, before anything is touched', async () => {
    const first = await start();
    await first.router.handle('keepEntries', {
      profileId: 'local',
      batch: crypto.randomUUID(),
      complete: true,
      entries: [entry('Rex'), entry('Mia')],
    });
    await first.dispose();
    core = null;
    const again = await start();
    again.updates.downloaded('0.2.0');
    await vi.waitFor(() => expect(again.updates.status()).toMatchObject({ state: 'ready', waiting: 2 }));
    expect(installOnQuit).not.toContain(true);
  });
});
