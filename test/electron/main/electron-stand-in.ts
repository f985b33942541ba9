/**
 * A stand-in for the `electron` module (never the real one: its binary cannot be installed
 * here), recording what the main process asks of it. Used with `vi.mock('electron', …)`.
 * Each API follows Electron's docs (docs/api/*.md): `protocol.registerSchemesAsPrivileged`
 * throws after `ready` and on a second call (protocol.md: "can only be used before the ready
 * event … and can be called only once"), `protocol.handle` throws before `ready` (protocol.md:
 * methods "can only be used after the ready event"), `loadURL` rejects when the page fails.
 */
type Listener = (...args: unknown[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  fire(event: string, ...args: unknown[]): unknown[] {
    return (this.listeners.get(event) ?? []).map((listener) => listener(...args));
  }
}

export class FakeWebContents extends Emitter {
  readonly id = Math.floor(Math.random() * 1e6);
  mainFrame: { url: string } = { url: '' };
  windowOpenHandler: ((details: unknown) => unknown) | null = null;
  sent: [string, unknown][] = [];
  destroyed = false;
  setWindowOpenHandler(handler: (details: unknown) => unknown): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  /** webContents.print (docs/api/web-contents.md): the test answers through `printAnswer`. */
  printed: unknown[] = [];
  printAnswer: [boolean, string] = [true, ''];
  print(options: unknown, callback: (success: boolean, failureReason: string) => void): void {
    this.printed.push(options);
    callback(...this.printAnswer);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export function createElectronStandIn() {
  const windows: FakeBrowserWindow[] = [];
  const handlers = new Map<string, Listener>();
  const failures: { loadURL?: Error } = {};
  const lifecycle = { ready: false, privileged: [] as unknown[][], privilegedBeforeReady: false };
  const protocols = new Map<string, (request: Request) => Response | Promise<Response>>();
  const menus = { set: [] as unknown[] };
  const dialogs: { title: string; content: string }[] = [];
  /** dialog.showSaveDialog calls (docs/api/dialog.md) and what the next one answers. */
  const saveDialogs = {
    calls: [] as { window: unknown; options: Record<string, unknown> }[],
    answer: { canceled: true, filePath: '' },
  };

  class FakeBrowserWindow extends Emitter {
    readonly webContents = new FakeWebContents();
    loadedUrl: string | null = null;
    maximized = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
    loadURL(url: string): Promise<void> {
      this.loadedUrl = url;
      this.webContents.mainFrame.url = url;
      return failures.loadURL ? Promise.reject(failures.loadURL) : Promise.resolve();
    }
    show(): void {}
    focus(): void {}
    restore(): void {}
    isMinimized(): boolean {
      return false;
    }
    maximize(): void {
      this.maximized = true;
    }
    isMaximized(): boolean {
      return this.maximized;
    }
    isDestroyed(): boolean {
      return false;
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 1000, height: 700 };
    }
  }

  const app = Object.assign(new Emitter(), {
    userData: '',
    hasLock: true,
    quitCalls: 0,
    exitCodes: [] as number[],
    requestSingleInstanceLock: () => app.hasLock,
    quit: () => void app.quitCalls++,
    exit: (code = 0) => void app.exitCodes.push(code),
    whenReady: () => {
      lifecycle.ready = true;
      return Promise.resolve();
    },
    getPath: (name: string) =>
      name === 'userData' ? app.userData : name === 'documents' ? app.documents : `/tmp/${name}`,
    documents: '/tmp/documents',
    isPackaged: false,
    /** What app.getPreferredSystemLanguages() answers (docs/api/app.md). */
    systemLanguages: ['en-US'] as string[],
    getPreferredSystemLanguages: () => [...app.systemLanguages],
  });

  const permissions = {
    requestHandler: null as
      null | ((wc: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void),
    checkHandler: null as null | ((...args: unknown[]) => boolean),
    headersHandler: null as null | ((details: unknown, callback: (response: unknown) => void) => void),
  };

  const protocol = {
    registerSchemesAsPrivileged: (schemes: unknown[]) => {
      if (lifecycle.ready || lifecycle.privileged.length > 0) throw new Error('only once, before ready');
      lifecycle.privileged.push(schemes);
      lifecycle.privilegedBeforeReady = true;
    },
    handle: (scheme: string, handler: (request: Request) => Response | Promise<Response>) => {
      if (!lifecycle.ready) throw new Error('protocol.handle before ready');
      if (protocols.has(scheme)) throw new Error(`scheme ${scheme} already handled`);
      protocols.set(scheme, handler);
    },
  };
  const Menu = {
    buildFromTemplate: (template: unknown[]) => ({ template }),
    setApplicationMenu: (menu: unknown) => void menus.set.push(menu),
  };
  const dialog = {
    showErrorBox: (title: string, content: string) => void dialogs.push({ title, content }),
    showSaveDialog: (window: unknown, options: Record<string, unknown>) => {
      saveDialogs.calls.push({ window, options });
      return Promise.resolve(saveDialogs.answer);
    },
  };

  const module = {
    app,
    protocol,
    Menu,
    dialog,
    BrowserWindow: FakeBrowserWindow,
    ipcMain: {
      handle: (channel: string, listener: Listener) => {
        if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
        handlers.set(channel, listener);
      },
      removeHandler: (channel: string) => void handlers.delete(channel),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: typeof permissions.requestHandler) => void (permissions.requestHandler = h),
        setPermissionCheckHandler: (h: typeof permissions.checkHandler) => void (permissions.checkHandler = h),
        webRequest: {
          onHeadersReceived: (h: typeof permissions.headersHandler) => void (permissions.headersHandler = h),
        },
      },
    },
  };
  return { module, windows, handlers, permissions, lifecycle, protocols, menus, dialogs, saveDialogs, failures };
}

export type ElectronStandIn = ReturnType<typeof createElectronStandIn>;

/**
 * The `electron` module a test gives `vi.mock('electron', …)`: each export reads the current
 * test's stand-in, so one mock serves every test of a file.
 */
export function electronModuleOf(current: () => ElectronStandIn['module']): Partial<ElectronStandIn['module']> {
  const names = Object.keys(createElectronStandIn().module) as (keyof ElectronStandIn['module'])[];
  return Object.defineProperties(
    {},
    Object.fromEntries(names.map((name) => [name, { get: () => current()[name], enumerable: true }])),
  );
}
