/**
 * The main process's app:// origin, permissions, menu and start-up failure, against the
 * electron stand-in (electron-stand-in.ts, which follows Electron's docs).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../../../electron/core/api/event-bus';
import { createAppCore } from '../../../electron/core/app-core';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import type { MainCore } from '../../../electron/main/main-process';
import { useLanguage } from '../../../src/shared/i18n';
import { ok } from '../../../src/shared/app-api/result';
import { createElectronStandIn, type ElectronStandIn, FakeWebContents } from './electron-stand-in';

const standIn: { current: ElectronStandIn } = vi.hoisted(() => ({ current: null as unknown as ElectronStandIn }));
vi.mock('electron', async () => {
  const { electronModuleOf } = await import('./electron-stand-in');
  return electronModuleOf(() => standIn.current.module);
});

const { startMainProcess, startupFailureTitle } = await import('../../../electron/main/main-process');

const outDir = '/opt/adoption-desk/out/main';
const PAGE = 'app://adoption-desk/index.html';

describe('main process: origin, permissions, menu, start-up failure', () => {
  let userData: string;
  const dispose = vi.fn();
  const core = {
    router: { handle: async () => ok(null) },
    events: createEventBus(),
    dispose,
  };

  async function start(options: { packaged?: boolean; createCore?: (dataDir: string) => Promise<MainCore> } = {}) {
    const main = startMainProcess({
      outDir,
      createCore: options.createCore ?? (async () => core),
      ...(options.packaged !== undefined ? { packaged: options.packaged } : {}),
    });
    return (await main.ready).window;
  }

  beforeEach(() => {
    standIn.current = createElectronStandIn();
    userData = mkdtempSync(join(tmpdir(), 'adoption-lifecycle-'));
    standIn.current.module.app.userData = userData;
    dispose.mockClear();
  });
  afterEach(() => rmSync(userData, { recursive: true, force: true }));

  it('registers app:// as standard and secure before ready, with no CSP bypass or CORS, and serves it after', async () => {
    await start();
    const { lifecycle, protocols } = standIn.current;
    expect(lifecycle.privilegedBeforeReady).toBe(true);
    expect(lifecycle.privileged).toEqual([
      [{ scheme: 'app', privileges: { standard: true, secure: true, codeCache: true } }],
    ]);
    expect([...protocols.keys()]).toEqual(['app']);
    expect(standIn.current.windows[0]?.loadedUrl).toBe(PAGE);
  });

  it('lets the app page in the main window main frame write to the clipboard and keep its storage, nothing else', async () => {
    await start();
    const win = standIn.current.windows[0]!;
    const { requestHandler, checkHandler } = standIn.current.permissions;
    const request = (contents: unknown, permission: string, details: unknown) => {
      let granted: boolean | null = null;
      requestHandler?.(contents, permission, (answer) => (granted = answer), details);
      return granted;
    };
    const main = { requestingUrl: `${PAGE}#/diagnostics`, isMainFrame: true };
    expect(request(win.webContents, 'clipboard-sanitized-write', main)).toBe(true);
    expect(checkHandler?.(win.webContents, 'clipboard-sanitized-write', 'app://adoption-desk', main)).toBe(true);
    expect(request(win.webContents, 'persistent-storage', main)).toBe(true);
    expect(checkHandler?.(win.webContents, 'persistent-storage', 'app://adoption-desk', main)).toBe(true);

    const refused: [unknown, string, unknown][] = [
      [win.webContents, 'clipboard-read', main],
      [win.webContents, 'media', main],
      [win.webContents, 'clipboard-sanitized-write', { requestingUrl: PAGE, isMainFrame: false }],
      [win.webContents, 'clipboard-sanitized-write', { requestingUrl: 'https://evil.example/', isMainFrame: true }],
      [win.webContents, 'clipboard-sanitized-write', { isMainFrame: true }],
      [new FakeWebContents(), 'clipboard-sanitized-write', main],
      [null, 'clipboard-sanitized-write', main],
      [win.webContents, 'persistent-storage', { requestingUrl: 'https://evil.example/', isMainFrame: true }],
      [new FakeWebContents(), 'persistent-storage', main],
    ];
    for (const [contents, permission, details] of refused) {
      expect(request(contents, permission, details), `${permission} ${JSON.stringify(details)}`).toBe(false);
      expect(checkHandler?.(contents, permission, 'app://adoption-desk', details)).toBe(false);
    }
  });

  it('gives a packaged app no Reload or DevTools: no menu on Linux/Windows, app+Edit+Window on macOS', async () => {
    const platform = vi.spyOn(process, 'platform', 'get');
    platform.mockReturnValue('linux');
    await start({ packaged: true });
    expect(standIn.current.menus.set).toEqual([null]);
    expect(standIn.current.windows[0]?.options.webPreferences).toMatchObject({ devTools: false });

    standIn.current = createElectronStandIn();
    standIn.current.module.app.userData = userData;
    platform.mockReturnValue('darwin');
    await start({ packaged: true });
    expect(standIn.current.menus.set).toEqual([
      { template: [{ role: 'appMenu' }, { role: 'editMenu' }, { role: 'windowMenu' }] },
    ]);
    expect(JSON.stringify(standIn.current.menus.set)).not.toMatch(/reload|devtools|viewMenu/i);
  });

  it('keeps Electron’s default menu and DevTools in a development run', async () => {
    await start({ packaged: false });
    expect(standIn.current.menus.set).toEqual([]);
    expect(standIn.current.windows[0]?.options.webPreferences).toMatchObject({ devTools: true });
  });

  it('shows a start-up failure in a dialog and exits, leaving no windowless process', async () => {
    const failing = async (): Promise<typeof core> => {
      throw new Error('The data folder could not be opened (EACCES).');
    };
    const window = await start({ createCore: failing });
    expect(window).toBeNull();
    expect(standIn.current.dialogs).toEqual([
      {
        title: startupFailureTitle(),
        content: expect.stringMatching(/^The data folder could not be opened \(EACCES\)\./),
      },
    ]);
    expect(standIn.current.module.app.exitCodes).toEqual([1]);
    expect(standIn.current.windows).toEqual([]);
  });

  it('a data folder another Adoption Desk uses: the dialog says so, in the system language, and the app exits (issue 31, item 6)', async () => {
    const openCore = (dataDir: string) =>
      createAppCore({
        fetch: globalThis.fetch,
        dataDir,
        secretStore: new MemorySecretStore(),
        builtIns: { file: resolve(import.meta.dirname, '../../../resources/profiles.json') },
        logError: () => {},
      });
    // `npm run host` on the same data folder, already running
    const other = await openCore(userData);
    standIn.current.module.app.systemLanguages = ['es-ES'];
    try {
      expect(
        await start({ createCore: async (dataDir: string) => ({ ...(await openCore(dataDir)), dispose }) }),
      ).toBeNull();
      expect(standIn.current.dialogs).toEqual([
        {
          title: 'Adoption Desk no pudo iniciarse',
          content: expect.stringMatching(/^Otro Adoption Desk ya está usando la carpeta de datos /),
        },
      ]);
      expect(standIn.current.dialogs[0]?.content).toContain(userData);
      expect(standIn.current.module.app.exitCodes).toEqual([1]);
      expect(standIn.current.windows).toEqual([]);
    } finally {
      await useLanguage('en');
      await other.dispose();
    }
  });

  it('treats a page that fails to load as a start-up failure, and disposes the core', async () => {
    standIn.current.failures.loadURL = new Error('ERR_FILE_NOT_FOUND (-6) loading app://adoption-desk/index.html');
    expect(await start()).toBeNull();
    expect(standIn.current.dialogs[0]?.content).toMatch(/ERR_FILE_NOT_FOUND/);
    expect(standIn.current.module.app.exitCodes).toEqual([1]);
    expect(dispose).toHaveBeenCalledOnce();
  });

  it('says a start-up failure in the system language (Spanish here), English again for an English system', async () => {
    standIn.current.module.app.systemLanguages = ['es-MX', 'en-US'];
    try {
      expect(await start({ createCore: async () => Promise.reject(new Error('EACCES')) })).toBeNull();
      expect(standIn.current.dialogs).toEqual([
        {
          title: 'Adoption Desk no pudo iniciarse',
          content: expect.stringMatching(/^EACCES\n\nAdoption Desk se cerrará ahora\. Los animales guardados/),
        },
      ]);
    } finally {
      await useLanguage('en');
    }
    standIn.current = createElectronStandIn();
    standIn.current.module.app.userData = userData;
    expect(await start({ createCore: async () => Promise.reject(new Error('EACCES')) })).toBeNull();
    expect(standIn.current.dialogs[0]?.title).toBe('Adoption Desk could not start');
  });
});
