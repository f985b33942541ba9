/**
 * The app root's own sentence in Spanish (issue 23): a removed profile whose data could not be
 * deleted from this computer.
 */
import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppStores } from '../../../src/app/app-stores.svelte';
import { LANGUAGE_STORAGE_KEY } from '../../../src/language';
import { useLanguage } from '../../../src/shared/i18n';
import type { Profile } from '../../../src/shared/records/profile';
import { deleteProfileDb } from '../../../src/storage/db';
import type { SyncDriver } from '../../../src/sync/sync-driver';
import { idleProgress } from '../../../src/sync/sync-progress';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';
import { uniqueProfileId } from '../support/test-helpers';

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

describe('AppStores in Spanish', () => {
  afterEach(async () => {
    localStorage.clear();
    await useLanguage('en');
  });

  it('says a removed profile’s data could not be deleted from this computer', async () => {
    // Staff chose Spanish (Keys and profiles): the window starts in it.
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'es');
    const profileId = uniqueProfileId();
    const api = fakeAdoptionApi();
    api.handle('listProfiles', () => ok({ profiles: [profile('local'), profile(profileId)], notice: null }));
    api.handle('governorSnapshot', () => err('not_found', 'none'));
    api.handle('removeProfile', () => ok({ removed: true as const }));
    const stores = new AppStores(api, sync, window);
    try {
      await stores.start();
      await stores.language.start();
      expect(stores.language.language).toBe('es');
      stores.session(profileId);
      const refused = vi.spyOn(Dexie.prototype, 'delete').mockRejectedValueOnce(new Error('blocked'));
      expect(await stores.removeProfile(profileId)).toBe(
        'Se quitó el perfil, pero no se pudieron eliminar sus datos de este equipo (blocked).',
      );
      expect(refused).toHaveBeenCalledOnce();
    } finally {
      stores.destroy();
      await deleteProfileDb(profileId);
    }
  });
});
