import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppStores } from '../../../src/app/app-stores.svelte';
import type { Profile, ProfileList } from '../../../src/shared/records/profile';
import type { Result } from '../../../src/shared/app-api/result';
import { ACTIVE_PROFILE_KEY } from '../../../src/shell/profile-list.svelte';
import { type CachedAnimal, closeProfileDb, openProfileDb } from '../../../src/storage/db';
import type { SyncDriver } from '../../../src/sync/sync-driver';
import { idleProgress } from '../../../src/sync/sync-progress';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import { animal, uniqueProfileId } from '../support/test-helpers';

const profile = (id: string): Profile => ({
  id,
  name: id,
  baseUrl: 'http://127.0.0.1:4010/v1',
  color: 'grey',
  kind: 'custom',
  builtIn: false,
});

const sync: SyncDriver = {
  sendPending: () => undefined,
  resumeAfterKey: () => undefined,
  progress: idleProgress,
  onProgress: () => () => undefined,
};

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.reverse()) cleanup();
  cleanups = [];
  localStorage.clear();
});

/** A profile database on "this computer" with one saved animal, closed again like at the end of a run. */
async function savedOnDisk(profileId: string): Promise<void> {
  const row: CachedAnimal = { id: '1', animal: animal('1', 'Bella'), confirmedAt: 1, firstSeenAt: 1 };
  await openProfileDb(profileId).animals.put(row);
  closeProfileDb(profileId);
  cleanups.push(() => {
    closeProfileDb(profileId);
    void Dexie.delete(`adoption-desk.${profileId}`);
  });
}

/** An app whose `listProfiles` answers only when the test says so. */
function app() {
  const api = fakeAdoptionApi();
  let answer: (result: Result<ProfileList>) => void = () => undefined;
  api.handle('listProfiles', () => new Promise<Result<ProfileList>>((resolve) => (answer = resolve)));
  api.handle('governorSnapshot', () => ({ ok: false, error: { code: 'not_found', message: 'none' } }));
  api.handle('hasKey', () => ok({ hasKey: false }));
  const stores = new AppStores(api, sync, window);
  cleanups.push(() => stores.destroy());
  return { api, stores, answer: (result: Result<ProfileList>) => answer(result) };
}

describe('AppStores start-up', () => {
  it('shows the remembered profile’s saved animals before the profile list is here, and keeps them', async () => {
    const remembered = uniqueProfileId();
    await savedOnDisk(remembered);
    localStorage.setItem(ACTIVE_PROFILE_KEY, remembered);
    const { stores, answer } = app();

    const started = stores.start();
    expect(stores.start()).toBe(started); // once, whoever starts it
    await vi.waitFor(() => expect(stores.profiles.shownId).toBe(remembered));
    const session = stores.session(remembered);
    await vi.waitFor(() => expect(session.saved.total).toBe(1));
    expect(stores.profiles.activeId).toBeNull();
    expect(stores.profiles.loaded).toBe(false);

    answer(ok({ profiles: [profile('other'), profile(remembered)], notice: null }));
    await started;
    expect(stores.profiles.activeId).toBe(remembered);
    expect(stores.profiles.shownId).toBe(remembered);
    expect(stores.profiles.assumedId).toBeNull();
    expect(stores.session(remembered)).toBe(session);
    expect(session.db.isOpen()).toBe(true);
  });

  it('falls back to the list’s pick when the remembered profile is gone, and drops its session', async () => {
    const gone = uniqueProfileId();
    const other = uniqueProfileId();
    await savedOnDisk(gone);
    localStorage.setItem(ACTIVE_PROFILE_KEY, gone);
    const { stores, answer } = app();

    const started = stores.start();
    await vi.waitFor(() => expect(stores.profiles.shownId).toBe(gone));
    const assumed = stores.session(gone);
    await vi.waitFor(() => expect(assumed.saved.loaded).toBe(true));

    answer(ok({ profiles: [profile(other)], notice: null }));
    await started;
    cleanups.push(() => closeProfileDb(other));
    expect(stores.profiles.activeId).toBe(other);
    expect(stores.profiles.shownId).toBe(other);
    expect(assumed.db.isOpen()).toBe(false);
    const again = stores.session(gone);
    cleanups.push(() => closeProfileDb(gone));
    expect(again).not.toBe(assumed);
  });

  it('assumes nothing when the remembered profile has no database here (and creates none)', async () => {
    const never = uniqueProfileId();
    localStorage.setItem(ACTIVE_PROFILE_KEY, never);
    const { stores, answer } = app();
    // The start looks for the database once; the test waits for that look, not for a time.
    const getNames = Dexie.getDatabaseNames.bind(Dexie);
    const looked = new Promise<string[]>((resolve) => {
      vi.spyOn(Dexie, 'getDatabaseNames').mockImplementation(async () => {
        const names = await getNames();
        resolve(names);
        return names;
      });
    });

    const started = stores.start();
    expect(await looked).not.toContain(`adoption-desk.${never}`);
    // What the start does with the answer is promise continuations only: one task turn runs them all.
    await new Promise((done) => setImmediate(done));
    expect(stores.profiles.shownId).toBeNull();
    answer(ok({ profiles: [], notice: null }));
    await started;
    expect(stores.profiles.shownId).toBeNull();
    expect(await Dexie.getDatabaseNames()).not.toContain(`adoption-desk.${never}`);
  });

  it('shows the error, not the remembered profile, when the list cannot be loaded', async () => {
    const remembered = uniqueProfileId();
    await savedOnDisk(remembered);
    localStorage.setItem(ACTIVE_PROFILE_KEY, remembered);
    const { stores, answer } = app();

    const started = stores.start();
    await vi.waitFor(() => expect(stores.profiles.shownId).toBe(remembered));
    const assumed = stores.session(remembered);
    answer({ ok: false, error: { code: 'internal', message: 'the profile file is unreadable' } });
    await started;
    expect(stores.profiles.error).toBe('the profile file is unreadable');
    expect(stores.profiles.shownId).toBeNull();
    expect(assumed.db.isOpen()).toBe(false);
  });
});
