import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import NewProfileForm from '../../../src/profiles/NewProfileForm.svelte';
import ProfileBand from '../../../src/profiles/ProfileBand.svelte';
import type { Profile } from '../../../src/shared/records/profile';
import { ProfileListStore } from '../../../src/shell/profile-list.svelte';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const LOCAL: Profile = {
  id: 'local',
  name: 'Local demo',
  baseUrl: 'http://127.0.0.1:4010/v1',
  color: 'green',
  kind: 'demo',
  builtIn: true,
};
const storage = () => {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, v: string) => void items.set(key, v),
  };
};

async function setup() {
  const api = fakeAdoptionApi();
  api.handle('listProfiles', () => ok({ profiles: [LOCAL], notice: null }));
  const profiles = new ProfileListStore(api, storage());
  await profiles.load();
  render(NewProfileForm, { profiles });
  return { api, profiles };
}

async function fill(name: string, address: string, colour?: string) {
  await fireEvent.input(screen.getByLabelText('Name'), { target: { value: name } });
  await fireEvent.input(screen.getByLabelText('Service address'), { target: { value: address } });
  if (colour) {
    const select = screen.getByLabelText('Colour') as HTMLSelectElement;
    select.selectedIndex = [...select.options].findIndex((option) => option.value === colour);
    await fireEvent.change(select);
  }
  await fireEvent.click(screen.getByRole('button', { name: 'Add profile' }));
}

describe('NewProfileForm', () => {
  afterEach(cleanup);

  it('is a form named "New profile" that refuses a missing name or a wrong address without sending', async () => {
    const { api } = await setup();
    expect(screen.getByRole('form', { name: 'New profile' })).toBeTruthy();
    await fill('', 'https://north.example.org/v1');
    expect(await screen.findByText('Name is required.')).toBeTruthy();
    await fill('North', 'http://north.example.org/v1');
    expect(await screen.findByText(/^Address must use https:\/\//)).toBeTruthy();
    expect(screen.getByLabelText('Service address').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls.filter((call) => call.channel === 'saveProfile')).toEqual([]);
  });

  it('adds the profile with its normalised address and colour, shows it and says so', async () => {
    const { api, profiles } = await setup();
    const north: Profile = {
      id: 'north',
      name: 'North',
      baseUrl: 'https://north.example.org/v1',
      color: 'purple',
      kind: 'custom',
      builtIn: false,
    };
    api.handle('saveProfile', () => ok(north));
    await fill('  North ', 'https://north.example.org/v1/', 'purple');
    await waitFor(() => expect(profiles.activeId).toBe('north'));
    expect(api.calls.at(-1)).toEqual({
      channel: 'saveProfile',
      input: { name: 'North', baseUrl: 'https://north.example.org/v1', color: 'purple' },
    });
    expect(await screen.findByText(/North was added and is now shown/)).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('shows what the core refused, and keeps what was typed', async () => {
    const { api } = await setup();
    api.handle('saveProfile', () => err('invalid_request', 'a profile named "Local demo" already exists.'));
    await fill('Local demo', 'https://x.example.org/v1');
    expect(await screen.findByText('a profile named "Local demo" already exists.')).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Local demo');
  });
});

describe('ProfileBand', () => {
  afterEach(cleanup);

  it('names its select "Profile" alone (the label does not wrap the options)', () => {
    render(ProfileBand, { profiles: [LOCAL], active: LOCAL, onselect: () => {} });
    const select = screen.getByLabelText('Profile') as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect(select.labels?.[0]?.textContent?.trim()).toBe('Profile');
    expect(select.value).toBe('local');
  });
});
