import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../../../electron/core/api/event-bus';
import type { Router } from '../../../electron/core/api/router';
import { CHANNELS, DESKTOP_CHANNELS, ipcName } from '../../../src/shared/app-api/api';
import { ok } from '../../../src/shared/app-api/result';
import { createElectronStandIn, type ElectronStandIn, FakeWebContents } from './electron-stand-in';

const standIn: { current: ElectronStandIn } = vi.hoisted(() => ({ current: null as unknown as ElectronStandIn }));
vi.mock('electron', async () => {
  const { electronModuleOf } = await import('./electron-stand-in');
  return electronModuleOf(() => standIn.current.module);
});

const { startMainProcess } = await import('../../../electron/main/main-process');
const { CONTENT_SECURITY_POLICY } = await import('../../../electron/core/content-security-policy');

describe('Electron main process (with a stand-in for electron)', () => {
  let userData: string;
  let calls: [string, unknown][];
  const events = createEventBus();
  const router: Router = {
    async handle(channel, input) {
      calls.push([channel, input]);
      return ok({ channel });
    },
  };
  const outDir = '/opt/adoption-desk/out/main';

  async function start() {
    const dispose = vi.fn();
    const main = startMainProcess({ outDir, createCore: async () => ({ router, events, dispose }) });
    const { window } = await main.ready;
    const win = standIn.current.windows[0];
    if (!window || !win) throw new Error('no window was created');
    return { win, dispose };
  }

  beforeEach(() => {
    standIn.current = createElectronStandIn();
    userData = mkdtempSync(join(tmpdir(), 'adoption-userdata-'));
    standIn.current.module.app.userData = userData;
    calls = [];
  });
  afterEach(() => rmSync(userData, { recursive: true, force: true }));

  it('creates the window with the security checklist options and the CJS preload', async () => {
    const { win } = await start();
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      // the system's separators: on Windows the same path with backslashes
      preload: normalize('/opt/adoption-desk/out/preload/index.cjs'),
    });
    expect(win.loadedUrl).toBe('app://adoption-desk/index.html');
  });

  it('denies every navigation, redirect, webview and new window', async () => {
    const { win } = await start();
    for (const event of ['will-navigate', 'will-redirect', 'will-attach-webview']) {
      const preventDefault = vi.fn();
      win.webContents.fire(event, { preventDefault }, 'https://evil.example/');
      expect(preventDefault, event).toHaveBeenCalled();
    }
    expect(win.webContents.windowOpenHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('guards every webContents the app creates, not just the main window', async () => {
    await start();
    const other = new FakeWebContents();
    standIn.current.module.app.fire('web-contents-created', {}, other);
    const preventDefault = vi.fn();
    other.fire('will-navigate', { preventDefault });
    expect(preventDefault).toHaveBeenCalled();
    expect(other.windowOpenHandler?.({})).toEqual({ action: 'deny' });
  });

  it('denies permission requests and checks, and adds the CSP header', async () => {
    const { win } = await start();
    const { permissions } = standIn.current;
    const granted = vi.fn();
    const page = { requestingUrl: 'app://adoption-desk/index.html', isMainFrame: true };
    permissions.requestHandler?.(win.webContents, 'media', granted, page);
    expect(granted).toHaveBeenCalledWith(false);
    expect(permissions.checkHandler?.(win.webContents, 'notifications', 'app://adoption-desk', page)).toBe(false);
    const answer = vi.fn();
    permissions.headersHandler?.({ responseHeaders: { 'X-Other': ['1'] } }, answer);
    expect(answer).toHaveBeenCalledWith({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
  });

  it('registers every contract channel and answers the main window main frame', async () => {
    const { win } = await start();
    expect([...standIn.current.handlers.keys()].sort()).toEqual([...CHANNELS, ...DESKTOP_CHANNELS].map(ipcName).sort());
    for (const channel of CHANNELS) {
      const handler = standIn.current.handlers.get(ipcName(channel));
      const answer = await handler?.(
        { sender: win.webContents, senderFrame: win.webContents.mainFrame },
        { profileId: 'local' },
      );
      expect(answer).toEqual({ ok: true, data: { channel } });
    }
    expect(calls.map(([channel]) => channel)).toEqual(CHANNELS);
  });

  it('refuses callers that are not the app window, its main frame or its page', async () => {
    const { win } = await start();
    const handler = standIn.current.handlers.get(ipcName('hasKey'));
    const strangers = [
      { sender: new FakeWebContents(), senderFrame: win.webContents.mainFrame },
      { sender: win.webContents, senderFrame: { url: win.webContents.mainFrame.url } },
      { sender: win.webContents, senderFrame: null },
    ];
    for (const event of strangers) {
      expect(await handler?.(event, { profileId: 'local' })).toEqual({
        ok: false,
        error: { code: 'invalid_request', message: 'Unknown sender' },
      });
    }
    win.webContents.mainFrame.url = 'https://evil.example/';
    expect(await handler?.({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, {})).toMatchObject({
      ok: false,
      error: { message: 'Unknown sender' },
    });
    expect(calls).toEqual([]);
  });

  it('pushes core events to the window with webContents.send', async () => {
    const { win } = await start();
    events.emit('connectivity', { profileId: 'local', online: false, at: 5 });
    expect(win.webContents.sent).toEqual([[ipcName('connectivity'), { profileId: 'local', online: false, at: 5 }]]);
  });

  it('quits when another instance holds the single-instance lock', async () => {
    standIn.current.module.app.hasLock = false;
    const createCore = vi.fn();
    const main = startMainProcess({ outDir, createCore });
    expect((await main.ready).window).toBeNull();
    expect(standIn.current.module.app.quitCalls).toBe(1);
    expect(createCore).not.toHaveBeenCalled();
    expect(standIn.current.windows).toEqual([]);
  });

  it('remembers the window size and position, and ignores one off every screen', async () => {
    const { win } = await start();
    win.fire('close');
    const file = join(userData, 'window-bounds.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      x: 10,
      y: 20,
      width: 1000,
      height: 700,
      maximized: false,
    });

    standIn.current = createElectronStandIn();
    standIn.current.module.app.userData = userData;
    const second = await start();
    expect(second.win.options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });

    writeFileSync(file, JSON.stringify({ x: 5000, y: 5000, width: 800, height: 600 }));
    standIn.current = createElectronStandIn();
    standIn.current.module.app.userData = userData;
    const third = await start();
    expect(third.win.options).toMatchObject({ width: 1200, height: 800 });
    expect(third.win.options).not.toHaveProperty('x');
  });

  it('disposes the core when the app quits', async () => {
    const { dispose } = await start();
    standIn.current.module.app.fire('will-quit');
    expect(dispose).toHaveBeenCalledOnce();
  });
});
