/**
 * The core speaks the window's language (the `useLanguage` channel) and, in Electron, the system's
 * until then: its errors, its notices, the updates' reason and the contract's validation messages
 * come out in Spanish once Spanish is chosen, and in English again after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AppCore, createAppCore } from '../../../../electron/core/app-core';
import { MESSAGES } from '../../../../electron/core/http';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import { ERROR_MESSAGES, errorFromResponse } from '../../../../electron/core/service/response-mapping';
import { readUpdateSettings, UpdatePolicy } from '../../../../electron/core/updates';
import { systemClock } from '../../../../src/shared/basics/clock';
import { currentLanguage, useLanguage } from '../../../../src/shared/i18n';

const RESOURCES = resolve(import.meta.dirname, '../../../../resources');

describe('the core in the window’s language', () => {
  let dataDir: string;
  let core: AppCore | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'adoption-core-language-'));
  });

  afterEach(async () => {
    await core?.dispose();
    core = null;
    await useLanguage('en');
    rmSync(dataDir, { recursive: true, force: true });
  });

  const open = async (systemLanguages?: readonly string[]) =>
    (core = await createAppCore({
      fetch: globalThis.fetch,
      dataDir,
      secretStore: new MemorySecretStore(),
      builtIns: { file: join(RESOURCES, 'profiles.json') },
      logError: () => {},
      ...(systemLanguages ? { systemLanguages: () => systemLanguages } : {}),
    }));

  it('answers a core error in Spanish after useLanguage es, and in English after useLanguage en', async () => {
    const app = await open();
    const english = await app.router.handle('keyStatus', { profileId: 'nobody' });
    expect(english).toEqual({ ok: false, error: { code: 'not_found', message: 'There is no profile with this id.' } });

    expect(await app.router.handle('useLanguage', { language: 'es' })).toEqual({ ok: true, data: { language: 'es' } });
    expect(await app.router.handle('keyStatus', { profileId: 'nobody' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No hay ningún perfil con este id.' },
    });
    // An error that names a profile, and one of the service client's.
    expect(await app.router.handle('listPets', { profileId: 'production', query: {} })).toMatchObject({
      ok: false,
      error: { code: 'not_configured', message: 'El perfil "Production" aún no tiene dirección de servicio.' },
    });

    await app.router.handle('useLanguage', { language: 'en' });
    expect(await app.router.handle('listPets', { profileId: 'production', query: {} })).toMatchObject({
      error: { message: 'The profile "Production" has no service address yet.' },
    });
  });

  it('answers the contract’s validation messages in Spanish (setKey with a key of two words), then English again', async () => {
    const app = await open();
    await app.router.handle('saveProfile', { name: 'Shelter', baseUrl: 'https://api.example.org/v1', color: 'blue' });
    await app.router.handle('useLanguage', { language: 'es' });
    expect(await app.router.handle('setKey', { profileId: 'shelter', key: 'two words' })).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'Petición setKey no válida: key: la clave contiene espacios o caracteres de control.',
      },
    });
    expect(await app.router.handle('saveProfile', { name: 'Otro', baseUrl: 'ftp://x', color: 'blue' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringContaining('La dirección debe usar https://') },
    });
    await app.router.handle('useLanguage', { language: 'en' });
    expect(await app.router.handle('setKey', { profileId: 'shelter', key: 'two words' })).toMatchObject({
      error: { message: 'Invalid setKey request: key: the key contains spaces or control characters.' },
    });
  });

  it('starts in the system language when one is given (Electron), before the window says', async () => {
    const app = await open(['es-MX', 'en-US']);
    expect(currentLanguage()).toBe('es');
    expect(await app.router.handle('updateStatus', {})).toEqual({
      ok: true,
      data: { state: 'off', reason: 'Las actualizaciones llegan con la app de escritorio instalada.' },
    });
    // The reason follows a later choice: it is said when the status is read.
    await app.router.handle('useLanguage', { language: 'en' });
    expect(await app.router.handle('updateStatus', {})).toEqual({
      ok: true,
      data: { state: 'off', reason: 'Updates come with the installed desktop app.' },
    });
  });

  it('says the HTTP client’s and the service’s messages in the language of the moment', async () => {
    const answer = {
      status: 503,
      headers: new Headers(),
      text: JSON.stringify({ code: 'busy', message: 'try later', status: 503 }),
    };
    try {
      await useLanguage('es');
      expect(MESSAGES.offline).toBe('No se pudo conectar con el servicio. Revisa la conexión de red.');
      expect(ERROR_MESSAGES.serverError(502)).toBe(
        'El servicio tuvo un problema (HTTP 502). Vuelve a intentarlo más tarde.',
      );
      expect(errorFromResponse(answer, 0, (text) => text).message).toBe(
        'El servicio pidió que vayamos más despacio (HTTP 503: ocupado); la app espera antes de enviar más. (El servicio dijo: try later)',
      );
      const off = readUpdateSettings({ enabled: false }, { sourceName: 'x', development: false });
      const policy = new UpdatePolicy({
        clock: systemClock,
        settings: off.settings,
        port: { check: async () => {}, setInstallOnQuit: () => {} },
        emit: () => {},
      });
      expect(policy.status()).toEqual({ state: 'off', reason: 'Tu organización desactivó las actualizaciones.' });
    } finally {
      await useLanguage('en');
    }
    expect(MESSAGES.offline).toBe('The service could not be reached. Check the network connection.');
    expect(errorFromResponse(answer, 0, (text) => text).message).toBe(
      'The service asked us to slow down (HTTP 503: busy); the app waits before it sends more. (The service said: try later)',
    );
  });

  it('logs in English whatever the language (updates: a refused address)', async () => {
    try {
      await useLanguage('es');
      const read = readUpdateSettings(
        { url: 'http://updates.example.org/' },
        { sourceName: 'policies', development: false },
      );
      expect(read.problems).toEqual(['policies: the update address must use https://; updates are off.']);
      expect(read.settings).toEqual({
        enabled: false,
        reason: 'policies: la dirección de actualizaciones debe usar https://; las actualizaciones están desactivadas.',
      });
    } finally {
      await useLanguage('en');
    }
  });
});
