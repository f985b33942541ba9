/**
 * A key is bound to the origin it was saved for (issue 12, finding 1): through the app
 * core's router over real HTTP, a local "exfiltration" listener never receives it after a
 * profile's address is changed to point there, and the organisation's addresses are
 * read-only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { decodeKeyRecord } from '../../../../electron/core/keys/bound-key';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import { type RunningService, startService } from '../../../service/index';

const KEY = 'sk_live_bound_0123456789abcdef';

/** Records every request's headers; answers an empty list. */
async function startListener(): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen, server };
}

describe('a key bound to its origin', () => {
  let dataDir: string;
  let resourcesDir: string;
  let service: RunningService;
  let listener: Awaited<ReturnType<typeof startListener>>;
  let store: MemorySecretStore;
  let core: AppCore;

  const open = async (production: string | null = null) => {
    writeFileSync(
      join(resourcesDir, 'profiles.json'),
      JSON.stringify({ version: 1, production: { baseUrl: production }, staging: { baseUrl: null } }),
    );
    core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore: store,
      builtIns: { file: join(resourcesDir, 'profiles.json') },
      localDemoUrl: service.url,
      logError: () => {},
    });
  };
  const handle = (channel: string, input: unknown) => core.router.handle(channel, input);
  const leaked = () => listener.seen.filter((headers) => headers.authorization !== undefined);

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-origin-data-'));
    resourcesDir = mkdtempSync(join(tmpdir(), 'adoption-origin-res-'));
    service = await startService({ port: 0, keys: { [KEY]: 'free' }, seedAnimals: 2 });
    listener = await startListener();
    store = new MemorySecretStore();
  });

  afterEach(async () => {
    await core.dispose();
    await service.stop();
    await new Promise<void>((done) => listener.server.close(() => done()));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(resourcesDir, { recursive: true, force: true });
  });

  it('records the origin in the keychain entry', async () => {
    await open();
    expect(await handle('setKey', { profileId: 'local', key: KEY })).toEqual({ ok: true, data: { saved: true } });
    const entry = await store.get('local');
    expect(entry && decodeKeyRecord(entry)).toEqual({ key: KEY, origin: new URL(service.url).origin });
    expect(await handle('listPets', { profileId: 'local', query: { limit: 2 } })).toMatchObject({ ok: true });
  });

  it('never sends the key to a new address: the change clears it, and nothing reaches the listener with it', async () => {
    await open();
    await handle('setKey', { profileId: 'local', key: KEY });
    expect(await handle('listPets', { profileId: 'local', query: {} })).toMatchObject({ ok: true });
    const moved = await handle('saveProfile', {
      id: 'local',
      name: 'Local demo',
      baseUrl: listener.url,
      color: 'green',
    });
    expect(moved).toMatchObject({ ok: true, data: { baseUrl: listener.url } });
    for (const channel of ['listPets', 'getPet', 'createPet', 'ordersRaw', 'testKey']) {
      const result = await handle(channel, {
        profileId: 'local',
        query: {},
        id: '1',
        animal: { name: 'Rex', categoryId: '1' },
        idempotencyKey: crypto.randomUUID(),
      });
      expect(result, channel).toMatchObject({ ok: false, error: { code: 'no_key' } });
    }
    expect(leaked()).toEqual([]);
    expect(await handle('hasKey', { profileId: 'local' })).toEqual({ ok: true, data: { hasKey: false } });
    expect(await store.get('local')).toBeNull();
    // Moving back does not bring the cleared key back; a key saved now is bound to the listener.
    await handle('setKey', { profileId: 'local', key: 'for-the-listener' });
    await handle('listPets', { profileId: 'local', query: {} });
    expect(leaked().map((headers) => headers.authorization)).toEqual(['Bearer for-the-listener']);
  });

  it('keeps the key when only the path or the colour changes (same origin)', async () => {
    await open();
    await handle('setKey', { profileId: 'local', key: KEY });
    await handle('saveProfile', { id: 'local', name: 'Local demo', baseUrl: service.url, color: 'purple' });
    expect(await handle('hasKey', { profileId: 'local' })).toEqual({ ok: true, data: { hasKey: true } });
    expect(await handle('listPets', { profileId: 'local', query: {} })).toMatchObject({ ok: true });
  });

  it('does not send a key bound elsewhere even when it could not be cleared (defence in depth)', async () => {
    await open();
    await handle('setKey', { profileId: 'local', key: KEY });
    store.delete = async () => {
      throw new Error('the keychain refused to delete');
    };
    await handle('saveProfile', { id: 'local', name: 'Local demo', baseUrl: listener.url, color: 'green' });
    expect(await store.get('local')).not.toBeNull();
    const result = await handle('listPets', { profileId: 'local', query: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'no_key' } });
    expect(JSON.stringify(result)).toContain(new URL(service.url).origin);
    expect(await handle('hasKey', { profileId: 'local' })).toEqual({ ok: true, data: { hasKey: false } });
    expect(leaked()).toEqual([]);
  });

  it('treats a bare key stored without an origin as no key', async () => {
    await open();
    await store.set('local', KEY);
    expect(await handle('hasKey', { profileId: 'local' })).toEqual({ ok: true, data: { hasKey: false } });
    expect(await handle('listPets', { profileId: 'local', query: {} })).toMatchObject({
      ok: false,
      error: { code: 'no_key' },
    });
  });

  it('refuses to change an address the organisation set, and marks it read-only', async () => {
    await open(service.url);
    const list = await handle('listProfiles', {});
    const production = list.ok ? (list.data as { profiles: { id: string }[] }).profiles[0] : null;
    expect(production).toMatchObject({ id: 'production', baseUrl: service.url, addressLocked: true });
    await handle('setKey', { profileId: 'production', key: KEY });
    const moved = await handle('saveProfile', {
      id: 'production',
      name: 'Production',
      baseUrl: listener.url,
      color: 'red',
    });
    expect(moved).toMatchObject({ ok: false, error: { message: expect.stringMatching(/set by your organisation/) } });
    const recoloured = await handle('saveProfile', {
      id: 'production',
      name: 'Production',
      baseUrl: service.url,
      color: 'purple',
    });
    expect(recoloured).toMatchObject({ ok: true, data: { color: 'purple', baseUrl: service.url } });
    expect(await handle('listPets', { profileId: 'production', query: {} })).toMatchObject({ ok: true });
    expect(leaked()).toEqual([]);
  });

  it('lets staff set an address the organisation left unset, and binds the key to it', async () => {
    await open(null);
    const set = await handle('saveProfile', {
      id: 'production',
      name: 'Production',
      baseUrl: service.url,
      color: 'red',
    });
    expect(set).toMatchObject({ ok: true, data: { baseUrl: service.url } });
    expect(set.ok && (set.data as { addressLocked?: boolean }).addressLocked).toBeFalsy();
    await handle('setKey', { profileId: 'production', key: KEY });
    expect(await handle('listPets', { profileId: 'production', query: {} })).toMatchObject({ ok: true });
    await handle('saveProfile', { id: 'production', name: 'Production', baseUrl: listener.url, color: 'red' });
    expect(await handle('listPets', { profileId: 'production', query: {} })).toMatchObject({
      ok: false,
      error: { code: 'no_key' },
    });
    expect(leaked()).toEqual([]);
  });

  it('refuses to save a key for a profile with no address (there is no origin to bind it to)', async () => {
    await open(null);
    const result = await handle('setKey', { profileId: 'production', key: KEY });
    expect(result).toMatchObject({ ok: false, error: { code: 'not_configured' } });
    expect(await store.get('production')).toBeNull();
  });
});
