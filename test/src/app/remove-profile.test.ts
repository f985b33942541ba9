/**
 * Removing a profile (issue 14, data safety 5) and the events the app stores pass to sync:
 * the core removes it first; only then is its queue let go and its database deleted; a
 * failure is returned for the screen to show and deletes nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppStores } from '../../../src/app/app-stores.svelte';
import type { Profile } from '../../../src/shared/records/profile';
import { deleteProfileDb, profileDbExists } from '../../../src/storage/db';
import type { SyncDriver } from '../../../src/sync/sync-driver';
import { idleProgress } from '../../../src/sync/sync-progress';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import { newAnimal, uniqueProfileId } from '../support/test-helpers';

const profile = (id: string): Profile => ({
  id,
  name: id,
  baseUrl: 'http://127.0.0.1:4010/v1',
  color: 'grey',
  kind: 'custom',
  builtIn: false,
});

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
  localStorage.clear();
});

async function started(profileId: string) {
  const api = fakeAdoptionApi();
  const sync = {
    sendPending: vi.fn(),
    resumeAfterKey: vi.fn(),
    retryEarly: vi.fn(),
    forget: vi.fn(),
    progress: idleProgress,
    onProgress: () => () => undefined,
  } satisfies SyncDriver;
  api.handle('listProfiles', () => ok({ profiles: [profile('local'), profile(profileId)], notice: null }));
  api.handle('governorSnapshot', () => err('not_found', 'none'));
  const stores = new AppStores(api, sync, window);
  cleanups.push(() => stores.destroy());
  await stores.start();
  const session = stores.session(profileId);
  const entered = await session.outbox.enqueue(newAnimal('Queued'));
  expect(entered).toMatchObject({ ok: true });
  await vi.waitFor(() => expect(session.outbox.unsent).toHaveLength(1));
  return { api, sync, stores, session };
}

describe('AppStores.removeProfile', () => {
  it('removes it in the core first, then lets its queue go and deletes its database', async () => {
    const profileId = uniqueProfileId();
    const { api, sync, stores, session } = await started(profileId);
    api.handle('removeProfile', () => ok({ removed: true as const }));
    expect(await profileDbExists(profileId)).toBe(true);

    expect(await stores.removeProfile(profileId)).toBeNull();
    expect(api.calls.filter((c) => c.channel === 'removeProfile')).toEqual([
      { channel: 'removeProfile', input: { profileId } },
    ]);
    expect(sync.forget).toHaveBeenCalledWith(profileId);
    expect(await profileDbExists(profileId)).toBe(false);
    expect(stores.profiles.profiles.map((p) => p.id)).toEqual(['local']);
    expect(stores.session(profileId)).not.toBe(session); // a new session would start empty
  });

  it('returns the core’s refusal and keeps the profile, its queue and its database', async () => {
    const profileId = uniqueProfileId();
    const { api, sync, stores } = await started(profileId);
    api.handle('removeProfile', () =>
      err('internal', 'The profile could not be removed: the settings file could not be written (EISDIR).'),
    );
    expect(await stores.removeProfile(profileId)).toMatch(/could not be removed/);
    expect(sync.forget).not.toHaveBeenCalled();
    expect(await profileDbExists(profileId)).toBe(true);
    stores.destroy();
    await deleteProfileDb(profileId);
  });

  it('lets go of a profile another window removed; passes “online” to sync as a wake, not new work', async () => {
    const profileId = uniqueProfileId();
    const { api, sync } = await started(profileId);
    api.emit('connectivity', { profileId, online: true, at: 1 });
    expect(sync.retryEarly).toHaveBeenCalledWith(profileId);
    expect(sync.sendPending).toHaveBeenCalledTimes(1); // only the enqueue's
    api.emit('profiles', { profiles: [profile('local')], notice: null });
    expect(sync.forget).toHaveBeenCalledWith(profileId);
    await deleteProfileDb(profileId);
  });
});
