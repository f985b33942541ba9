/**
 * The Electron main process: single-instance lock, the app's own `app://` origin, the app
 * core, the secure window, the menu and the IPC transport. Everything Electron-specific comes
 * from the `electron` module, so tests run this with a stand-in for it; the core is injected.
 * A failure anywhere in start-up is shown in a dialog and the app exits, so no windowless
 * process is left holding the single-instance lock.
 */
import { app, type BrowserWindow, dialog, ipcMain, Menu, protocol, session } from 'electron';
import { join } from 'node:path';
import { errorMessage } from '../../src/shared/errors';
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

export const STARTUP_FAILURE_TITLE = 'Adoption Desk could not start';

/** The dialog's text: the error's own message, bounded, and what staff can do. */
export function startupFailureMessage(error: unknown): string {
  const raw = errorMessage(error);
  const message = raw.length > 500 ? `${raw.slice(0, 500)}…` : raw;
  return `${message}\n\nAdoption Desk will now close. Animals saved on this device are kept. If this happens again, tell IT what this message says.`;
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
    console.error(`start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    // Callable before `ready`; on Linux before `ready` it prints to stderr (docs/api/dialog.md).
    dialog.showErrorBox(STARTUP_FAILURE_TITLE, startupFailureMessage(error));
    await Promise.resolve(core?.dispose()).catch(() => undefined);
    // app.exit: no before-quit/will-quit, windows closed at once, the lock released with the process.
    app.exit(1);
    return { window: null };
  });
  return { ready };
}
