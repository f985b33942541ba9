/**
 * A stand-in for the `electron` module, for running the BUILT main process (out/main/index.js)
 * in plain Node. It records what the main process asks for; once the window has loaded its
 * page it exercises every guard (navigation, new windows, webviews, permissions, CSP header,
 * IPC sender check) and writes a JSON report to $ADOPTION_STAND_IN_REPORT, then exits.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

class Emitter {
  listeners = new Map();
  on(event, listener) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event, listener) {
    return this.on(event, listener);
  }
  fire(event, ...args) {
    return (this.listeners.get(event) ?? []).map((listener) => listener(...args));
  }
}

class FakeWebContents extends Emitter {
  static nextId = 1;
  id = FakeWebContents.nextId++;
  mainFrame = { url: '' };
  windowOpenHandler = null;
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  send() {}
  isDestroyed() {
    return false;
  }
}

const record = { singleInstanceLock: false, userDataSet: null, windows: [], handlers: new Map(), session: {} };
const paths = { userData: '/nonexistent' };

/** Fires `event` on `contents` and says whether a listener called preventDefault. */
function prevented(contents, event) {
  let called = false;
  contents.fire(event, { preventDefault: () => (called = true) }, 'https://evil.example/');
  return called;
}

async function report() {
  const win = record.windows[0];
  const contents = win.webContents;
  const other = new FakeWebContents();
  app.fire('web-contents-created', {}, other);
  let permissionGranted = 'not called';
  record.session.requestHandler?.(contents, 'media', (granted) => (permissionGranted = granted));
  let headers = null;
  record.session.headersHandler?.({ responseHeaders: { 'X-Other': ['1'] } }, (answer) => (headers = answer));
  const ipcHandler = record.handlers.get('adoption:hasKey');
  const foreign = await ipcHandler?.({ sender: other, senderFrame: other.mainFrame }, { profileId: 'local' });
  const result = {
    singleInstanceLock: record.singleInstanceLock,
    userDataSet: record.userDataSet,
    windowCount: record.windows.length,
    webPreferences: win.options.webPreferences,
    show: win.options.show,
    loadedUrl: win.loadedUrl,
    navigation: Object.fromEntries(
      ['will-navigate', 'will-redirect', 'will-attach-webview'].map((event) => [event, prevented(contents, event)]),
    ),
    windowOpen: contents.windowOpenHandler?.({ url: 'https://evil.example/' }) ?? null,
    otherContents: {
      willNavigatePrevented: prevented(other, 'will-navigate'),
      windowOpen: other.windowOpenHandler?.({ url: 'https://evil.example/' }) ?? null,
    },
    permissionGranted,
    permissionCheck: record.session.checkHandler?.(contents, 'notifications') ?? 'not set',
    responseHeaders: headers?.responseHeaders ?? null,
    ipcChannels: [...record.handlers.keys()].sort(),
    foreignSenderAnswer: foreign ?? null,
  };
  writeFileSync(process.env.ADOPTION_STAND_IN_REPORT, JSON.stringify(result, null, 2));
  process.exit(0);
}

export const app = Object.assign(new Emitter(), {
  isPackaged: false,
  requestSingleInstanceLock: () => (record.singleInstanceLock = true),
  quit: () => process.exit(3),
  whenReady: () => Promise.resolve(),
  setPath: (name, value) => {
    paths[name] = value;
    if (name === 'userData') record.userDataSet = value;
  },
  getPath: (name) => paths[name] ?? `/tmp/${name}`,
  getAppPath: () => resolve(process.env.ADOPTION_APP_PATH ?? process.cwd()),
});

export class BrowserWindow extends Emitter {
  webContents = new FakeWebContents();
  loadedUrl = null;
  constructor(options) {
    super();
    this.options = options;
    record.windows.push(this);
  }
  loadURL(url) {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    setImmediate(() => void report());
    return Promise.resolve();
  }
  show() {}
  focus() {}
  restore() {}
  maximize() {}
  isMinimized() {
    return false;
  }
  isMaximized() {
    return false;
  }
  isDestroyed() {
    return false;
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: 1200, height: 800 };
  }
}

export const ipcMain = {
  handle: (channel, listener) => record.handlers.set(channel, listener),
  removeHandler: (channel) => record.handlers.delete(channel),
};

export const net = { fetch: (...args) => fetch(...args) };

export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler) => (record.session.requestHandler = handler),
    setPermissionCheckHandler: (handler) => (record.session.checkHandler = handler),
    webRequest: { onHeadersReceived: (handler) => (record.session.headersHandler = handler) },
  },
};

export default { app, BrowserWindow, ipcMain, net, screen, session };
