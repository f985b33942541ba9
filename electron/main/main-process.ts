/**
 * The Electron main process: single-instance lock, the app's own `app://` origin, the app
 * core, the secure window, the menu and the IPC transport. Everything Electron-specific comes
 * from the `electron` module, so tests run this with a stand-in for it; the core is injected.
 * A failure anywhere in start-up is shown in a dialog and the app exits, so no windowless
 * process is left holding the single-instance lock.
 */
import { app, type BrowserWindow, dialog, ipcMain, Menu, protocol, session } from 'electron';
import { join } from 'node:path';
import { errorMessage } from '../../src/shared/basics/errors';
import { matchLanguage, t, useLanguage } from '../../src/shared/i18n';
import { type EventBus, nodeSettingsFs, type Router, writeFileAtomic } from '../core';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { createDesktopHandlers, registerDesktopIpc } from './desktop-channels';
import { forwardEvents, registerIpc, trustedSenderCheck } from './ipc';
import { productionMenuTemplate } from './menu';
import { permissionPolicy } from './permissions';
import { appPage, createMainWindow, guardSession, guardWebContents } from './window';

export interface MainCore {
  router: Router;
  events: Pick<EventBus, 'subscribe'>;
  dispose(): Promise<void> | void;
}

export interface MainProcessOptions {
  /** `out/main` at run time. */
  outDir: string;
  createCore(userDataDir: string): Promise<MainCore>;
  devServerUrl?: string;
  /** Packaged: production menu, no DevTools (default `app.isPackaged`). */
  packaged?: boolean;
}

export interface MainProcess {
  /** Resolves once the window exists (null when another instance owns the app or start-up failed). */
  ready: Promise<{ window: BrowserWindow | null }>;
}

/** The start-up failure dialog's title, in the core's language (the system's until the window says). */
export const startupFailureTitle = (): string => t('main.startupFailedTitle');

/** The dialog's text: the error's own message, bounded, and what staff can do. */
export function startupFailureMessage(error: unknown): string {
  const raw = errorMessage(error);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return t('main.startupFailedMessage', { message });
}

/**
 * The main process speaks the system's language until the window says otherwise (the core's
 * `useLanguage` channel then changes it for the whole process): the start-up failure dialog, the
 * save dialogs, the core's first words. docs/api/app.md: `app.getPreferredSystemLanguages()` gives
 * "the user's preferred system languages from most preferred to least preferred, including the
 * country codes if applicable" (g_get_language_names on Linux: "es_MX"; matchLanguage reads "-" and
 * "_" alike). Unlike Node, where the environment (LANG, LC_ALL) would be read, Electron asks the OS.
 */
async function useSystemLanguage(): Promise<void> {
  const language = matchLanguage(app.getPreferredSystemLanguages());
  await useLanguage(language);
}

export function startMainProcess(options: MainProcessOptions): MainProcess {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return { ready: Promise.resolve({ window: null }) };
  }
  // Before `ready`, and only once (docs/api/protocol.md).
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);

  const packaged = options.packaged ?? app.isPackaged;
  let window: BrowserWindow | null = null;
  let core: MainCore | null = null;

  app.on('second-instance', () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  // Any webContents the app ever makes gets the same navigation and window-open guards.
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => void core?.dispose());

  const start = async (): Promise<{ window: BrowserWindow | null }> => {
    await app.whenReady();
    await useSystemLanguage();
    const windowOptions = {
      outDir: options.outDir,
      userDataDir: app.getPath('userData'),
      devServerUrl: options.devServerUrl,
      packaged,
    };
    const page = appPage(windowOptions);
    protocol.handle(APP_SCHEME, createAppProtocolHandler(join(options.outDir, '../renderer')));
    const isAppContents = (contents: unknown) => !!window && !window.isDestroyed() && contents === window.webContents;
    guardSession(session.defaultSession, permissionPolicy(isAppContents, page.isAppUrl));
    if (packaged) {
      const template = productionMenuTemplate(process.platform);
      Menu.setApplicationMenu(template ? Menu.buildFromTemplate(template) : null);
    }
    core = await options.createCore(windowOptions.userDataDir);
    const trusted = trustedSenderCheck(() => window, page.isAppUrl);
    registerIpc(ipcMain, core.router, trusted);
    registerDesktopIpc(
      ipcMain,
      createDesktopHandlers<BrowserWindow>({
        getWindow: () => (window && !window.isDestroyed() ? window : null),
        showSaveDialog: (win, dialogOptions) => dialog.showSaveDialog(win, dialogOptions),
        print: (win, printOptions, callback) => win.webContents.print(printOptions, callback),
        writeFile: (path, text) => writeFileAtomic(nodeSettingsFs, path, text),
        documentsDir: app.getPath('documents'),
      }),
      trusted,
    );
    forwardEvents(core.events, () => (window && !window.isDestroyed() ? window.webContents : null));
    window = createMainWindow(windowOptions);
    window.on('closed', () => {
      window = null;
    });
    // loadURL rejects when the page fails to load (docs/api/browser-window.md, win.loadURL).
    await window.loadURL(page.url);
    return { window };
  };

  const ready = start().catch(async (error: unknown) => {
    await failStartup(error, core);
    return { window: null };
  });
  return { ready };
}

/**
 * Says in a dialog why the app could not start, and exits 1: no windowless process is left behind.
 * Also for a throw in the entry's own top level (index.ts), which Electron would otherwise only
 * report: its `uncaughtException` handler shows "A JavaScript error occurred in the main process"
 * and does not quit (lib/browser/init.ts, "Don't quit on fatal error"; an ESM entry's rejection is
 * emitted there too, after `appCodeLoaded`).
 */
export async function failStartup(error: unknown, core: MainCore | null = null): Promise<void> {
  console.error(`start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  await useSystemLanguage().catch(() => undefined);
  // Callable before `ready`; on Linux before `ready` it prints to stderr (docs/api/dialog.md).
  dialog.showErrorBox(startupFailureTitle(), startupFailureMessage(error));
  await Promise.resolve(core?.dispose()).catch(() => undefined);
  // app.exit: no before-quit/will-quit, windows closed at once, the lock released with the process.
  app.exit(1);
}
