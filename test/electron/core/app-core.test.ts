import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../electron/core/app-core';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { ConnectivityTracker } from '../../../electron/core/service/connectivity';
import { CHANNELS, type EventName } from '../../../src/shared/app-api/api';
import { err, ok } from '../../../src/shared/app-api/result';
import { type RunningService, startService } from '../../service/index';

const RESOURCES = resolve(import.meta.dirname, '../../../resources');

describe('app core over the local service', () => {
  let dataDir: string;
  let service: RunningService;
  let core: AppCore;
  let seen: [EventName, unknown][];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-core-'));
    service = await startService({ port: 0, keys: { k1: 'free' }, seedAnimals: 5 });
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore: new MemorySecretStore(),
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      localDemoUrl: service.url,
      logError: () => {},
    });
    seen = [];
    core.events.subscribe((event, payload) => seen.push([event, payload]));
  });

  afterEach(async () => {
    await core.dispose();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists the Local demo animals once its key is set, and reports it online and the key accepted', async () => {
    expect(await core.router.handle('keyStatus', { profileId: 'local' })).toMatchObject({
      ok: true,
      data: { profileId: 'local', state: 'none' },
    });
    expect(await core.router.handle('listPets', { profileId: 'local', query: {} })).toMatchObject({
      ok: false,
      error: { code: 'no_key' },
    });
    expect(await core.router.handle('setKey', { profileId: 'local', key: 'k1' })).toEqual({
      ok: true,
      data: { saved: true },
    });
    const listed = await core.router.handle('listPets', { profileId: 'local', query: { limit: 3 } });
    expect(listed.ok && (listed.data as { animals: unknown[] }).animals).toHaveLength(3);
    expect(
      seen.filter(([event]) => event === 'connectivity').map(([, p]) => (p as { online: boolean }).online),
    ).toEqual([true]);
    expect(seen.filter(([event]) => event === 'key').map(([, p]) => (p as { state: string }).state)).toEqual([
      'saved',
      'accepted',
    ]);
    expect(await core.router.handle('keyStatus', { profileId: 'local' })).toMatchObject({
      ok: true,
      data: { state: 'accepted' },
    });
    expect(seen.some(([event]) => event === 'governor')).toBe(true);
    const diagnostics = await core.router.handle('diagnostics', {});
    expect(JSON.stringify(diagnostics)).not.toContain('k1"');
  });

  it('answers not_configured for a profile without an address or unknown', async () => {
    for (const profileId of ['production', 'nobody']) {
      for (const channel of ['listPets', 'getPet', 'createPet', 'ordersRaw', 'testKey'] as const) {
        const input = {
          profileId,
          query: {},
          id: '1',
          animal: { name: 'x', categoryId: '1' },
          idempotencyKey: crypto.randomUUID(),
        };
        expect(await core.router.handle(channel, input)).toMatchObject({
          ok: false,
          error: { code: 'not_configured' },
        });
      }
    }
    expect((await core.router.handle('governorSnapshot', { profileId: 'production' })).ok).toBe(true);
  });

  it('emits profiles on a change and uses a profile new address at once', async () => {
    const saved = await core.router.handle('saveProfile', { name: 'Shelter B', baseUrl: service.url, color: 'blue' });
    expect(saved.ok).toBe(true);
    expect(seen.some(([event]) => event === 'profiles')).toBe(true);
    const id = saved.ok ? (saved.data as { id: string }).id : '';
    await core.router.handle('setKey', { profileId: id, key: 'k1' });
    expect((await core.router.handle('testKey', { profileId: id })).ok).toBe(true);
    // A new address: the next call goes to the other service, without the old key (it was cleared).
    const other = await startService({ port: 0, keys: { k2: 'free' }, seedAnimals: 1 });
    try {
      await core.router.handle('saveProfile', { id, name: 'Shelter B', baseUrl: other.url, color: 'blue' });
      // The key went with the old address, and the renderers are told.
      expect(seen.filter(([event]) => event === 'key').at(-1)?.[1]).toMatchObject({ profileId: id, state: 'none' });
      expect(await core.router.handle('listPets', { profileId: id, query: {} })).toMatchObject({
        ok: false,
        error: { code: 'no_key' },
      });
      await core.router.handle('setKey', { profileId: id, key: 'k2' });
      const listed = await core.router.handle('listPets', { profileId: id, query: {} });
      expect(listed.ok && (listed.data as { animals: unknown[] }).animals).toHaveLength(1);
    } finally {
      await other.stop();
    }
    expect(await core.router.handle('removeProfile', { profileId: id })).toEqual({ ok: true, data: { removed: true } });
    expect(await core.router.handle('hasKey', { profileId: id })).toEqual({ ok: true, data: { hasKey: false } });
  });

  it('serves every channel without an exception crossing the router', async () => {
    for (const channel of CHANNELS) {
      const result = await core.router.handle(channel, { profileId: 'local' });
      expect(typeof result.ok, channel).toBe('boolean');
    }
  });
});

describe('connectivity tracker', () => {
  it('reports every observation (a reloaded window learns the state from the next call); says nothing for errors without an answer', () => {
    const reports: { profileId: string; online: boolean; at: number }[] = [];
    let now = 100;
    const clock = { now: () => now, monotonic: () => now, setTimeout: () => 0, clearTimeout: () => {} };
    const tracker = new ConnectivityTracker(clock, (p) => reports.push(p));
    tracker.observe('a', ok({ animals: [] }));
    tracker.observe('a', err('unauthorized', 'no', { status: 401 }));
    now = 200;
    tracker.observe('a', err('offline', 'down'));
    tracker.observe('a', err('timeout', 'slow'));
    tracker.observe('a', err('no_key', 'none'));
    tracker.observe('a', err('not_configured', 'none'));
    now = 300;
    tracker.observe('a', err('rate_limited', 'slow down', { status: 429 }));
    tracker.observe('b', ok({ result: 'unreachable', message: '' }));
    expect(reports).toEqual([
      { profileId: 'a', online: true, at: 100 },
      { profileId: 'a', online: true, at: 100 },
      { profileId: 'a', online: false, at: 200 },
      { profileId: 'a', online: false, at: 200 },
      { profileId: 'a', online: true, at: 300 },
      { profileId: 'b', online: false, at: 300 },
    ]);
  });
});
