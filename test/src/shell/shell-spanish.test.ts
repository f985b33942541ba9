import { afterEach, describe, expect, it, vi } from 'vitest';
import { clockTime, showLanguage } from '../../../src/language';
import {
  describeUpdate,
  FileExportStore,
  formatReset,
  kindBadge,
  kindLabel,
  KeysStore,
  reachabilityText,
  updateNotice,
} from '../../../src/shell';
import { ProxyLoginsStore } from '../../../src/profiles/proxy-logins.svelte';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const speak = showLanguage;

afterEach(async () => {
  await speak('en');
});

const at = (hours: number, minutes: number) => new Date(2026, 10, 24, hours, minutes).getTime();

describe("The shell's words in Spanish", () => {
  it('times of day stay HH:MM in both languages', async () => {
    expect(clockTime(at(9, 7))).toBe('09:07');
    expect(clockTime(at(0, 5))).toBe('00:05');
    await speak('es');
    expect(clockTime(at(14, 5))).toBe('14:05');
    expect(formatReset(150_000)).toBe('unos 3 min');
    expect(formatReset(42_000)).toBe('42 s');
  });

  it('kinds of profile and reachability follow the language', async () => {
    expect([kindBadge('production'), kindLabel('demo'), reachabilityText('unknown')]).toEqual([
      'PRODUCTION',
      'local demo',
      'Not checked yet',
    ]);
    await speak('es');
    expect([kindBadge('production'), kindBadge('staging'), kindLabel('demo'), kindLabel('custom')]).toEqual([
      'PRODUCCIÓN',
      'PRUEBAS',
      'demo local',
      'personalizado',
    ]);
    expect([reachabilityText('online'), reachabilityText('offline'), reachabilityText('unknown')]).toEqual([
      'Conectado',
      'Sin conexión',
      'Sin comprobar todavía',
    ]);
  });

  it('updates are described in Spanish, with plurals', async () => {
    await speak('es');
    expect(updateNotice({ state: 'ready', version: '0.2.0', waiting: 1 })).toBe(
      'Actualización lista: se instala cuando se envíe el animal en espera.',
    );
    expect(updateNotice({ state: 'ready', version: '0.2.0', waiting: 3 })).toBe(
      'Actualización lista: se instala cuando se envíen los 3 animales en espera.',
    );
    expect(updateNotice({ state: 'ready', version: '0.2.0', waiting: 0 })).toBe(
      'Actualización lista: la versión 0.2.0 se instala cuando cierres Adoption Desk.',
    );
    expect(describeUpdate({ state: 'idle', lastCheck: at(9, 0), nextCheck: at(13, 0) })).toBe(
      'Al día (última búsqueda: 09:00). Próxima búsqueda: 13:00.',
    );
    expect(describeUpdate({ state: 'downloading', version: '0.2.0', percent: 42 })).toBe(
      'Descargando la versión 0.2.0 (42 %)…',
    );
    expect(describeUpdate(null)).toBe('Todavía no se sabe.');
  });

  it('the same in English, word for word as before', () => {
    expect(describeUpdate({ state: 'idle', lastCheck: at(9, 0), nextCheck: at(13, 0) })).toBe(
      'Up to date (looked at 09:00). Next look at 13:00.',
    );
    expect(describeUpdate({ state: 'failed', message: 'offline', lastCheck: null, nextCheck: at(13, 0) })).toBe(
      'The last look for an update failed: offline. Next look at 13:00.',
    );
    expect(describeUpdate({ state: 'downloading', version: '0.2.0', percent: null })).toBe(
      'Downloading version 0.2.0…',
    );
    expect(formatReset(150_000)).toBe('about 3 min');
  });

  it("the key store's sentences follow the language; the core's reason stays as it came", async () => {
    const api = fakeAdoptionApi();
    api.handle('clearKey', () => err('keychain', 'the keychain is locked'));
    const keys = new KeysStore(api);
    expect(await keys.save('local', 'has a space')).toBe(false);
    expect(keys.error).toBe('Key not saved: the key contains spaces or control characters.');
    await keys.remove('local');
    expect(keys.error).toBe('Key not removed: the keychain is locked');
    await speak('es');
    expect(keys.error).toBe('Clave no quitada: the keychain is locked');
  });

  it('proxy logins and file exports say what they did in Spanish', async () => {
    await speak('es');
    const api = fakeAdoptionApi();
    api.handle('setProxyLogin', () => ok({ saved: true as const }));
    api.handle('proxyLogins', () => ok({ logins: [], asked: [] }));
    const logins = new ProxyLoginsStore(api);
    expect(await logins.save(' proxy.example.org:3128 ', 'ana', 'secreto')).toBe(true);
    expect(logins.message).toBe('Inicio de sesión del proxy guardado para proxy.example.org:3128.');

    const saveFile = vi.fn(async () => ok({ saved: true, fileName: 'gatos.json' }));
    const exportApi = fakeAdoptionApi();
    Object.defineProperty(exportApi, 'desktop', { value: { saveFile, printPage: vi.fn() } });
    const files = new FileExportStore(exportApi);
    expect(await files.save('categories.json', '{}', () => '2 nombres de categoría')).toBe(true);
    expect(files.message).toBe('Exportación de 2 nombres de categoría guardada como gatos.json.');
    files.addNote(() => 'Nota.');
    expect(files.message).toBe('Exportación de 2 nombres de categoría guardada como gatos.json. Nota.');
    await speak('en');
    expect(files.message).toBe('2 nombres de categoría saved as gatos.json. Nota.');
  });
});
