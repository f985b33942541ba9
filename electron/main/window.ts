/**
 * The main window, following Electron's security checklist: context isolation, sandbox, no
 * Node in the renderer, the page served from the app's own origin (app-protocol.ts) with a
 * strict CSP (header and meta), every navigation and new window denied, every permission
 * denied but clipboard writes by the app's own page. Size and position are remembered.
 */
import { BrowserWindow, screen, type Session, type WebContents } from 'electron';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../core';
import { APP_PAGE_URL, isAppPageUrl } from './app-protocol';
import type { PermissionAsk } from './permissions';
import { DEFAULT_SIZE, isVisibleOn, loadWindowBounds, saveWindowBounds } from './window-bounds';

export const WINDOW_BOUNDS_FILE = 'window-bounds.json';

export interface MainWindowOptions {
  /** Folder of the built app (`out/main` at run time): the preload and renderer are beside it. */
  outDir: string;
  userDataDir: string;
  /** electron-vite's dev server (`ELECTRON_RENDERER_URL`), when not packaged. */
  devServerUrl?: string;
  /** A packaged app has no DevTools at all. */
  packaged?: boolean;
}

export function webPreferences(outDir: string, packaged = false): Electron.WebPreferences {
  return {
    preload: join(outDir, '../preload/index.cjs'),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    spellcheck: false,
    devTools: !packaged,
  };
}

/** The page the window shows, and the test that a URL is that page. */
export function appPage(options: MainWindowOptions): { url: string; isAppUrl: (url: string) => boolean } {
  if (options.devServerUrl) {
    const origin = new URL(options.devServerUrl).origin;
    return { url: options.devServerUrl, isAppUrl: (url) => safeOrigin(url) === origin };
  }
  return { url: APP_PAGE_URL, isAppUrl: isAppPageUrl };
}

function safeOrigin(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Denies navigation, new windows and webviews on any webContents. */
export function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/**
 * Grants a permission only where `allow` says so (permissions.ts) and adds the CSP header to
 * every HTTP response of the session (the dev server's; app:// responses carry their own).
 */
export function guardSession(target: Session, allow: (ask: PermissionAsk) => boolean): void {
  // docs/api/session.md: request handler (webContents, permission, callback, details) and
  // check handler (webContents | null, permission, requestingOrigin, details).
  target.setPermissionRequestHandler((webContents, permission, callback, details) =>
    callback(
      allow({ webContents, permission, requestingUrl: details?.requestingUrl, isMainFrame: details?.isMainFrame }),
    ),
  );
  target.setPermissionCheckHandler((webContents, permission, _origin, details) =>
    allow({ webContents, permission, requestingUrl: details?.requestingUrl, isMainFrame: details?.isMainFrame }),
  );
  target.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const boundsFile = join(options.userDataDir, WINDOW_BOUNDS_FILE);
  const saved = loadWindowBounds(boundsFile);
  const workAreas = screen.getAllDisplays().map((display) => display.workArea);
  const position = saved && isVisibleOn(saved, workAreas) ? saved : null;

  const win = new BrowserWindow({
    width: position?.width ?? DEFAULT_SIZE.width,
    height: position?.height ?? DEFAULT_SIZE.height,
    ...(position ? { x: position.x, y: position.y } : {}),
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Adoption Desk',
    webPreferences: webPreferences(options.outDir, options.packaged),
  });
  guardWebContents(win.webContents);
  if (position?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const bounds = win.getNormalBounds();
    saveWindowBounds(boundsFile, { ...bounds, maximized: win.isMaximized() });
  });
  return win;
}
