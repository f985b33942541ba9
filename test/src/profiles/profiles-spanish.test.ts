import { showLanguage } from '../../../src/language';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import KeyField from '../../../src/profiles/KeyField.svelte';
import ProfileBand from '../../../src/profiles/ProfileBand.svelte';
import ProfileEditor from '../../../src/profiles/ProfileEditor.svelte';
import ProxyLogin from '../../../src/profiles/ProxyLogin.svelte';
import RemoveProfile from '../../../src/profiles/RemoveProfile.svelte';
import type { Profile } from '../../../src/shared/records/profile';
import { KeysStore } from '../../../src/shell/keys.svelte';
import { ProfileListStore } from '../../../src/shell/profile-list.svelte';
import { ProxyLoginsStore } from '../../../src/profiles/proxy-logins.svelte';
import { fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const speak = showLanguage;

afterEach(async () => {
  cleanup();
  await speak('en');
});

const PRODUCTION: Profile = {
  id: 'production',
  name: 'Production',
  baseUrl: 'https://api.shelter.example/v1',
  color: 'red',
  kind: 'production',
  builtIn: true,
};
const LOCAL: Profile = {
  id: 'local',
  name: 'Local demo',
  baseUrl: 'http://127.0.0.1:4010/v1',
  color: 'green',
  kind: 'demo',
  builtIn: true,
};
const NORTH: Profile = {
  id: 'north',
  name: 'Shelter North',
  baseUrl: 'https://north.example.org/v1',
  color: 'blue',
  kind: 'custom',
  builtIn: false,
};

describe('Keys and profiles in Spanish', () => {
  it("the band names the kind in Spanish and keeps the profiles' names as the organisation set them", async () => {
    render(ProfileBand, { profiles: [PRODUCTION, LOCAL, NORTH], active: PRODUCTION, onselect: () => {} });
    expect(screen.getByText('PRODUCTION')).toBeTruthy();
    await speak('es');
    expect(await screen.findByText('PRODUCCIÓN')).toBeTruthy();
    expect(screen.getByTestId('active-profile-name').textContent).toBe('Production');
    const select = screen.getByLabelText('Perfil') as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual([
      'Production (producción)',
      'Local demo (demo local)',
      'Shelter North (personalizado)',
    ]);
  });

  it('the band without a profile', async () => {
    await speak('es');
    render(ProfileBand, { profiles: [], active: null, onselect: () => {} });
    expect(screen.getByText('SIN PERFIL')).toBeTruthy();
    expect(screen.getByText('Elige un perfil')).toBeTruthy();
  });

  it('asks before removing a profile with unsent animals, with Spanish plurals', async () => {
    await speak('es');
    render(RemoveProfile, { profile: NORTH, unsent: 3, remove: async () => null });
    await fireEvent.click(screen.getByRole('button', { name: 'Quitar este perfil' }));
    const question = await screen.findByRole('alertdialog', { name: '¿Quitar Shelter North?' });
    expect(question.textContent).toContain('3 animales introducidos en Shelter North no se han enviado.');
    expect(question.textContent).toContain('nunca podrán enviarse.');
    expect(screen.getByRole('button', { name: 'Quitar Shelter North y sus 3 animales sin enviar' })).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Mantener el perfil' }));
  });

  it('one unsent animal in English stays as it was', async () => {
    render(RemoveProfile, { profile: NORTH, unsent: 1, remove: async () => null });
    await fireEvent.click(screen.getByRole('button', { name: 'Remove this profile' }));
    const question = await screen.findByRole('alertdialog', { name: 'Remove Shelter North?' });
    expect(question.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Remove Shelter North? 1 animal entered in Shelter North has not been sent. Removing the profile deletes it from this computer for good: they can never be sent. Remove Shelter North and its 1 unsent animal Keep the profile',
    );
  });

  it('the profile editor asks about another server in Spanish, colours included', async () => {
    await speak('es');
    const api = fakeAdoptionApi();
    const profiles = new ProfileListStore(api, { getItem: () => null, setItem: () => undefined });
    render(ProfileEditor, { profile: LOCAL, profiles, hasKey: true });
    const colours = screen.getByLabelText('Color') as HTMLSelectElement;
    expect([...colours.options].map((option) => option.textContent)).toEqual([
      'rojo',
      'ámbar',
      'verde',
      'azul',
      'morado',
      'gris',
    ]);
    await fireEvent.input(screen.getByLabelText('Dirección del servicio'), { target: { value: 'ftp://x' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Guardar perfil' }));
    expect((await screen.findByText(/^La dirección /)).id).toBe('profile-error');
    await fireEvent.input(screen.getByLabelText('Dirección del servicio'), {
      target: { value: 'https://elsewhere.example/v1' },
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Guardar perfil' }));
    const question = await screen.findByRole('alertdialog', { name: '¿Cambiar la dirección a otro servidor?' });
    expect(question.textContent).toContain(
      'https://elsewhere.example es un servidor distinto de http://127.0.0.1:4010. La clave de API de este perfil se guarda solo para http://127.0.0.1:4010',
    );
    expect(screen.getByRole('button', { name: 'Cambiar la dirección y quitar la clave' })).toBeTruthy();
  });

  it('the key field and what the store says follow the language', async () => {
    const api = fakeAdoptionApi();
    api.handle('setKey', () => ok({ saved: true as const }));
    const keys = new KeysStore(api);
    render(KeyField, { keys, profileId: 'local' });
    await fireEvent.input(screen.getByLabelText('API key'), { target: { value: 'a-good-key-123' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save key' }));
    expect(await screen.findByText('Key saved.')).toBeTruthy();
    await speak('es');
    expect(await screen.findByText('Clave guardada.')).toBeTruthy();
    expect(screen.getByText('Clave guardada')).toBeTruthy();
    expect(screen.getByLabelText('Sustituir la clave de API').getAttribute('placeholder')).toBe('Pega una clave nueva');
    expect(screen.getByRole('button', { name: 'Probar clave' })).toBeTruthy();
  });

  it('the proxy login card in Spanish, the user name in bold as it is', async () => {
    await speak('es');
    const api = fakeAdoptionApi();
    api.handle('proxyLogins', () =>
      ok({ logins: [{ proxy: 'proxy.example.org:3128', username: 'ana' }], asked: ['proxy.example.org:3128'] }),
    );
    render(ProxyLogin, { logins: new ProxyLoginsStore(api) });
    expect(await screen.findByText('El proxy proxy.example.org:3128 pide iniciar sesión.')).toBeTruthy();
    const saved = await screen.findByText(/sesión guardada para/);
    expect(saved.textContent).toBe('proxy.example.org:3128: sesión guardada para ana');
    expect(saved.querySelector('strong')?.textContent).toBe('ana');
    expect(screen.getByRole('form', { name: 'Inicio de sesión del proxy' })).toBeTruthy();
    expect(screen.getByLabelText('Proxy (host:puerto)')).toBeTruthy();
  });
});
