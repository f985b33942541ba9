/**
 * The demo's console lines are in the system's language (LC_ALL, LC_MESSAGES, LANG), except the
 * two address lines, which other tools read: those stay exactly as they were, in every language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { envLanguage, useEnvLanguage } from '../../electron/host';
import { t, useLanguage } from '../../src/shared/i18n';
import { keychainFix } from '../../scripts/lib/demo-keychain';
import { appAddressLine, serviceAddressLine } from '../../scripts/lib/demo-lines';

afterEach(async () => {
  await useLanguage('en');
});

const LINK = 'http://ab12.localhost:5199/?launch=Zx9';
const SERVICE = 'http://127.0.0.1:4010/v1';

describe('the demo’s language', () => {
  it('reads LC_ALL over LC_MESSAGES over LANG; C, POSIX or nothing is English', () => {
    expect(envLanguage({ LANG: 'es_ES.UTF-8' })).toBe('es');
    expect(envLanguage({ LANG: 'es_ES.UTF-8', LC_MESSAGES: 'en_GB.UTF-8' })).toBe('en');
    expect(envLanguage({ LANG: 'en_US.UTF-8', LC_MESSAGES: 'en_GB', LC_ALL: 'es_MX.UTF-8' })).toBe('es');
    expect(envLanguage({ LANG: 'es_AR', LC_ALL: '' })).toBe('es');
    expect(envLanguage({ LANG: 'C.UTF-8' })).toBe('en');
    expect(envLanguage({ LC_ALL: 'POSIX', LANG: 'es_ES' })).toBe('en');
    expect(envLanguage({})).toBe('en');
  });

  it('prints its lines in Spanish on a Spanish system, the address lines exactly as before', async () => {
    expect(await useEnvLanguage({ LANG: 'es_ES.UTF-8' })).toBe('es');
    expect(t('demo.noElectron')).toBe(
      'Electron no está instalado en esta máquina; se inicia el host del navegador en su lugar.',
    );
    expect(keychainFix()).toMatch(/^No se pudo guardar la clave de la demo porque/);
    expect(appAddressLine(LINK, '2.1 s')).toBe(
      'Adoption Desk is ready at http://ab12.localhost:5199/?launch=Zx9  (ready in 2.1 s; Ctrl+C stops it)',
    );
    expect(serviceAddressLine(SERVICE, 40, 'local-demo-key')).toBe(
      'Local demo service: http://127.0.0.1:4010/v1 (40 animals, key "local-demo-key" on the Free plan)',
    );
    // What tools read of them.
    expect(/^Adoption Desk is ready at (\S+)/.exec(appAddressLine(LINK, '0.4 s'))?.[1]).toBe(LINK);
    expect(/^Local demo service: (\S+)/.exec(serviceAddressLine(SERVICE, 40, 'k'))?.[1]).toBe(SERVICE);
  });

  it('prints them in English on an English system, as they always were', async () => {
    expect(await useEnvLanguage({ LANG: 'en_US.UTF-8' })).toBe('en');
    expect(t('demo.building')).toBe('Building the app (first run only)…');
    expect(keychainFix()).toBe(
      'The demo key could not be stored because no system keychain is usable, so the app cannot load animals yet.\n' +
        'Adoption Desk keeps API keys only in the keychain, never in a file. To fix it on Debian/Ubuntu:\n' +
        '  sudo apt-get install -y dbus gnome-keyring libsecret-1-0\n' +
        'then run `npm run demo` again (it starts a private keyring session by itself when no desktop keyring is running).',
    );
  });
});
