/**
 * The Electron main process: single-instance lock, the app core, the secure window and the
 * IPC transport. Everything Electron-specific comes from the `electron` module, so tests
 * run this with a stand-in for it; the core is injected.
 */
import { app, ipcMain, type BrowserWindow } from 'electron';
import type { EventBus } from '../core/event-bus';
import type { Router } from '../core/router';
import { forwardEvents, registerIpc, trustedSenderCheck } from './ipc';
import { appPage, createMainWindow, guardWebContents } from './window';

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
}

export interface MainProcess {
  /** Resolves once the window exists (or at once when another instance owns the app). */
  ready: Promise<{ window: BrowserWindow | null }>;
}

export function startMainProcess(options: MainProcessOptions): MainProcess {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return { ready: Promise.resolve({ window: null }) };
  }

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

  const ready = app.whenReady().then(async () => {
    const userDataDir = app.getPath('userData');
    core = await options.createCore(userDataDir);
    const windowOptions = { outDir: options.outDir, userDataDir, devServerUrl: options.devServerUrl };
    const page = appPage(windowOptions);
    registerIpc(
      ipcMain,
      core.router,
      trustedSenderCheck(() => window, page.isAppUrl),
    );
    forwardEvents(core.events, () => (window && !window.isDestroyed() ? window.webContents : null));
    window = createMainWindow(windowOptions);
    window.on('closed', () => {
      window = null;
    });
    return { window };
  });
  return { ready };
}
