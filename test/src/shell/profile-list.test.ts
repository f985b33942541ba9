import { describe, expect, it } from 'vitest';
import type { Profile, ProfileList } from '../../../src/shared/records/profile';
import { ACTIVE_PROFILE_KEY, ProfileListStore, SHOWN_PROFILE_KEY } from '../../../src/shell/profile-list.svelte';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const profile = (id: string, kind: Profile['kind'], baseUrl: string | null): Profile => ({
  id,
  name: id,
  baseUrl,
  color: 'grey',
  kind,
  builtIn: kind !== 'custom',
});

const PROFILES = [
  profile('production', 'production', null),
  profile('staging', 'staging', null),
  profile('local', 'demo', 'http://127.0.0.1:4010/v1'),
];

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe('ProfileListStore', () => {
  it('starts on the first configured profile, remembers the choice, and follows profile events', async () => {
    const api = fakeAdoptionApi();
    api.handle('listProfiles', () => ok({ profiles: PROFILES, notice: null }));
    const storage = memoryStorage();
    const profiles = new ProfileListStore(api, storage);
    await profiles.load();
    expect(profiles.active?.id).toBe('local');
    expect(Object.fromEntries(storage.items)).toEqual({ [SHOWN_PROFILE_KEY]: 'local' }); // picked, not chosen

    profiles.select('staging');
    expect(storage.items.get(ACTIVE_PROFILE_KEY)).toBe('staging');
    // Only profile ids: the chosen one, and the shown one (start-up's hint).
    expect(Object.fromEntries(storage.items)).toEqual({
      [ACTIVE_PROFILE_KEY]: 'staging',
      [SHOWN_PROFILE_KEY]: 'staging',
    });
    profiles.select('no-such-profile');
    expect(profiles.activeId).toBe('staging');

    api.emit('profiles', { profiles: PROFILES.filter((p) => p.id !== 'staging'), notice: 'Staging was removed.' });
    expect(profiles.notice).toBe('Staging was removed.');
    expect(profiles.activeId).not.toBe('staging');

    const again = new ProfileListStore(api, memoryStorage({ [ACTIVE_PROFILE_KEY]: 'production' }));
    await again.load();
    expect(again.active?.kind).toBe('production');

    // The shown profile is only start-up's hint: it picks nothing.
    const hinted = new ProfileListStore(api, memoryStorage({ [SHOWN_PROFILE_KEY]: 'staging' }));
    expect(hinted.remembered()).toBe('staging');
    await hinted.load();
    expect(hinted.activeId).toBe('local');
  });

  it('shows an assumed profile only until the list (or an error) is here', async () => {
    const api = fakeAdoptionApi();
    let answer: (list: ProfileList) => void = () => undefined;
    api.handle('listProfiles', () => new Promise((resolve) => (answer = (list) => resolve(ok(list)))));
    const profiles = new ProfileListStore(api, memoryStorage({ [ACTIVE_PROFILE_KEY]: 'gone' }));
    expect(profiles.remembered()).toBe('gone');
    expect(profiles.shownId).toBeNull();

    const loading = profiles.load();
    expect(profiles.assume('gone')).toBe(true);
    expect(profiles.shownId).toBe('gone');
    expect(profiles.activeId).toBeNull();
    answer({ profiles: PROFILES, notice: null });
    await loading;
    expect(profiles.assumedId).toBeNull();
    expect(profiles.shownId).toBe('local');
    expect(profiles.assume('staging')).toBe(false);
    expect(profiles.shownId).toBe('local');

    const failing = fakeAdoptionApi();
    failing.handle('listProfiles', () => err('internal', 'unreadable'));
    const broken = new ProfileListStore(failing, memoryStorage({ [ACTIVE_PROFILE_KEY]: 'local' }));
    const pending = broken.load();
    broken.assume('local');
    await pending;
    expect(broken.error).toBe('unreadable');
    expect(broken.shownId).toBeNull();
    expect(broken.assume('local')).toBe(false);
  });

  it("adds a profile of staff's own and shows it; a refused one changes nothing", async () => {
    const api = fakeAdoptionApi();
    api.handle('listProfiles', () => ok({ profiles: PROFILES, notice: null }));
    const storage = memoryStorage();
    const profiles = new ProfileListStore(api, storage);
    await profiles.load();
    const north: Profile = { ...profile('north-shelter', 'custom', 'https://north.example.org/v1'), name: 'North' };
    api.handle('saveProfile', () => ok(north));
    expect(await profiles.add({ name: 'North', baseUrl: 'https://north.example.org/v1', color: 'grey' })).toBeNull();
    expect(api.calls.at(-1)).toEqual({
      channel: 'saveProfile',
      input: { name: 'North', baseUrl: 'https://north.example.org/v1', color: 'grey' },
    });
    expect(profiles.profiles.map((p) => p.id)).toEqual(['production', 'staging', 'local', 'north-shelter']);
    expect(profiles.activeId).toBe('north-shelter');
    expect(profiles.added?.name).toBe('North');
    expect(storage.items.get(ACTIVE_PROFILE_KEY)).toBe('north-shelter');
    profiles.select('local');
    expect(profiles.added).toBeNull();

    api.handle('saveProfile', () => err('invalid_request', 'a profile named "North" already exists'));
    expect(await profiles.add({ name: 'north', baseUrl: 'https://n.example.org/v1', color: 'red' })).toContain(
      'already exists',
    );
    expect(profiles.activeId).toBe('local');
    expect(profiles.profiles).toHaveLength(4);
  });
});
