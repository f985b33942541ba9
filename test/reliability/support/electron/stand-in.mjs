/**
 * A stand-in for the `electron` module, for running the BUILT main process (out/main/index.js)
 * in plain Node. It records what the main process asks for; once the window has loaded its
 * page, exercise.mjs drives every guard and writes a JSON report to $ADOPTION_STAND_IN_REPORT,
 * then exits. A start-up failure ends in `app.exit`, which writes the report too.
 *
 * It knows only what Electron's docs say (docs/api/*.md of electron/electron):
 * - protocol.registerSchemesAsPrivileged: "only before the ready event … called only once";
 *   protocol.handle: after ready; the handler takes a GlobalRequest, returns a GlobalResponse.
 * - session handlers: request (webContents, permission, callback, details{requestingUrl,
 *   isMainFrame}); check (webContents|null, permission, requestingOrigin, details).
 * - Menu.setApplicationMenu(menu|null); dialog.showErrorBox(title, content);
 *   app.exit(code): exits at once, no will-quit.
 * Modes (environment): ADOPTION_STAND_IN_PACKAGED=1 (app.isPackaged, process.resourcesPath =
 * $ADOPTION_STAND_IN_RESOURCES), ADOPTION_STAND_IN_FAIL=window (the BrowserWindow constructor
 * throws, as a GPU or display failure would), ADOPTION_STAND_IN_FAIL=setPath (app.setPath throws, as
 * Electron's does for a folder it cannot use: docs/api/app.md "If the path specifies a directory that
 * does not exist, an Error is thrown"; the entry's own top level then throws).
 */
import { resolve } from 'node:path';
import { exercise, writeReport } from './exercise.mjs';

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

export class FakeWebContents extends Emitter {
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

const packaged = process.env.ADOPTION_STAND_IN_PACKAGED === '1';
if (packaged) process.resourcesPath = process.env.ADOPTION_STAND_IN_RESOURCES;

export const record = {
  singleInstanceLock: false,
  userDataSet: null,
  ready: false,
  privileged: [],
  privilegedBeforeReady: null,
  protocols: new Map(),
  menus: [],
  dialogs: [],
  netAccessed: [],
  windows: [],
  handlers: new Map(),
  session: {},
};
const paths = { userData: process.env.ADOPTION_STAND_IN_USER_DATA ?? '/nonexistent' };

export const app = Object.assign(new Emitter(), {
  isPackaged: packaged,
  requestSingleInstanceLock: () => (record.singleInstanceLock = true),
  quit: () => process.exit(3),
  exit: (code = 0) => writeReport(record, { exitCode: code }, code),
  whenReady: () => {
    record.ready = true;
    return Promise.resolve();
  },
  setPath: (name, value) => {
    if (process.env.ADOPTION_STAND_IN_FAIL === 'setPath') throw new Error(`Failed to set path: ${value}`);
    paths[name] = value;
    if (name === 'userData') record.userDataSet = value;
  },
  getPath: (name) => paths[name] ?? `/tmp/${name}`,
  getAppPath: () => resolve(process.env.ADOPTION_APP_PATH ?? process.cwd()),
  // docs/api/app.md: the user's preferred system languages, most preferred first
  // (ADOPTION_STAND_IN_LANGUAGES: a comma-separated list, to start as on a system in another language).
  getPreferredSystemLanguages: () => (process.env.ADOPTION_STAND_IN_LANGUAGES ?? 'en-US').split(','),
});

export const protocol = {
  registerSchemesAsPrivileged: (schemes) => {
    if (record.privileged.length > 0) throw new Error('registerSchemesAsPrivileged can be called only once');
    record.privilegedBeforeReady = !record.ready;
    record.privileged.push(...schemes);
  },
  handle: (scheme, handler) => {
    if (!record.ready) throw new Error('protocol.handle before ready');
    record.protocols.set(scheme, handler);
  },
};

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: (menu) => record.menus.push(menu),
};

export const dialog = { showErrorBox: (title, content) => record.dialogs.push({ title, content }) };

export class BrowserWindow extends Emitter {
  webContents = new FakeWebContents();
  loadedUrl = null;
  constructor(options) {
    super();
    if (process.env.ADOPTION_STAND_IN_FAIL === 'window') throw new Error('The GPU process could not start.');
    this.options = options;
    record.windows.push(this);
  }
  loadURL(url) {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    setImmediate(() => void exercise({ app, record, FakeWebContents }));
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

// The app must not use Electron's net (index.ts says why): every property read is recorded.
export const net = new Proxy(
  {},
  {
    get: (_target, property) => {
      record.netAccessed.push(String(property));
      return () => Promise.reject(new Error('net is not to be used by the app'));
    },
  },
);

export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler) => (record.session.requestHandler = handler),
    setPermissionCheckHandler: (handler) => (record.session.checkHandler = handler),
    webRequest: { onHeadersReceived: (handler) => (record.session.headersHandler = handler) },
  },
};

export default { app, protocol, Menu, dialog, BrowserWindow, ipcMain, net, screen, session };
