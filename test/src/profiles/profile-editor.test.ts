import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import ProfileEditor from '../../../src/profiles/ProfileEditor.svelte';
import type { Profile } from '../../../src/shared/records/profile';
import { ProfileListStore } from '../../../src/shell/profile-list.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const LOCAL: Profile = {
  id: 'local',
  name: 'Local demo',
  baseUrl: 'http://127.0.0.1:4010/v1',
  color: 'green',
  kind: 'demo',
  builtIn: true,
};
const PRODUCTION: Profile = {
  id: 'production',
  name: 'Production',
  baseUrl: 'https://api.shelter.example/v1',
  color: 'red',
  kind: 'production',
  builtIn: true,
  addressLocked: true,
};

function setup(profile: Profile, hasKey = true) {
  const api = fakeAdoptionApi();
  api.handle('saveProfile', (input) => ok({ ...profile, ...input, baseUrl: input.baseUrl, id: profile.id }));
  const profiles = new ProfileListStore(api, { getItem: () => null, setItem: () => undefined });
  profiles.profiles = [profile];
  const saved: string[] = [];
  render(ProfileEditor, { profile, profiles, hasKey, onsaved: () => saved.push(profile.id) });
  const saves = () => api.calls.filter((call) => call.channel === 'saveProfile');
  return { api, saves, saved };
}

async function typeAddress(value: string) {
  await fireEvent.input(screen.getByLabelText('Service address'), { target: { value } });
  await fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));
}

describe('ProfileEditor', () => {
  afterEach(cleanup);

  it('says the key will be removed and saves nothing until staff confirm an address on another server', async () => {
    const { saves, saved } = setup(LOCAL);
    await typeAddress('https://elsewhere.example/v1');
    const question = await screen.findByRole('alertdialog', { name: 'Change the address to another server?' });
    expect(question.textContent).toContain('https://elsewhere.example');
    expect(question.textContent).toContain('http://127.0.0.1:4010');
    expect(question.textContent).toMatch(/API key[\s\S]*will be removed/);
    expect(saves()).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Change address and remove the key' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]?.input).toMatchObject({ id: 'local', baseUrl: 'https://elsewhere.example/v1' });
    expect(await screen.findByText(/The API key was removed/)).toBeTruthy();
    expect(saved).toEqual(['local']);
  });

  it('cancels the change when staff say no', async () => {
    const { saves } = setup(LOCAL);
    await typeAddress('https://elsewhere.example/v1');
    await fireEvent.click(await screen.findByRole('button', { name: 'Keep the current address' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect((screen.getByLabelText('Service address') as HTMLInputElement).value).toBe(LOCAL.baseUrl);
    expect(saves()).toEqual([]);
  });

  it('asks nothing for the same server (another path) or when no key is saved', async () => {
    const same = setup(LOCAL);
    await typeAddress('http://127.0.0.1:4010/api/v1');
    await waitFor(() => expect(same.saves()).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    cleanup();
    const keyless = setup(LOCAL, false);
    await typeAddress('https://elsewhere.example/v1');
    await waitFor(() => expect(keyless.saves()).toHaveLength(1));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows an address the organisation set read-only, and saves the profile with it unchanged', async () => {
    const { saves } = setup(PRODUCTION);
    const address = screen.getByLabelText('Service address') as HTMLInputElement;
    expect(address.readOnly).toBe(true);
    expect(address.value).toBe(PRODUCTION.baseUrl);
    expect(screen.getByText(/Set by your organisation/)).toBeTruthy();
    // (the colour select cannot be driven here: happy-dom has no `:checked` for options)
    await fireEvent.input(address, { target: { value: 'https://elsewhere.example/v1' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]?.input).toMatchObject({ id: 'production', baseUrl: PRODUCTION.baseUrl, color: 'red' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
