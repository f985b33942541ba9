/**
 * One e2e suite, two ways to open the app (issue 21): through the loopback browser host in
 * Chromium (`playwright.config.ts`, everywhere) or as the desktop app in Electron through
 * Playwright's `_electron.launch` (`playwright.electron.config.ts`, where the Electron binary
 * exists: the project's GitHub workflow). The config says which by `ADOPTION_E2E_APP` before the
 * fixtures load; everything that decides how the app is opened is here, free of Playwright, so it
 * is unit-tested (test/scripts/e2e-app-kind.test.ts).
 */
import { join } from 'node:path';
import type { ElectronBinary } from '../../../scripts/lib/electron-binary';

export type AppKind = 'browser' | 'electron';

/** Set by playwright.electron.config.ts (in the runner and in every worker, which load the config too). */
export const APP_KIND_ENV = 'ADOPTION_E2E_APP';

export function appKindFrom(env: NodeJS.ProcessEnv): AppKind {
  const value = env[APP_KIND_ENV];
  if (value === undefined || value === '' || value === 'browser') return 'browser';
  if (value === 'electron') return 'electron';
  throw new Error(`${APP_KIND_ENV} must be "browser" or "electron", not "${value}"`);
}

/**
 * Specs about the browser host alone, with the reason: the Electron project does not run them.
 * Every other spec in test/e2e/ runs in both projects, with the same steps and assertions.
 */
export const HOST_ONLY_SPECS: Readonly<Record<string, string>> = {
  'app-smoke.spec.ts':
    'the launch link and the session cookie exist in the browser host only (Electron: electron/smoke.spec.ts)',
  'key-sweep.spec.ts': "reads the browser host's HTTP answers and its process's output for the key",
  'host-restart.spec.ts': 'restarts the browser host in the test process',
  'loopback-address.spec.ts': "binds the browser host's port on [::1] and starts the host as a process",
  'update-earlier-queue.spec.ts':
    'updates a browser host from an earlier version of it (git history) in one browser profile',
  'crash-during-add.spec.ts': 'kills a browser host process',
  'crash-during-sync.spec.ts': 'kills a browser host process',
  'crash-during-sync.soak.spec.ts': 'kills a browser host process',
  'storage-loss.spec.ts': "clears and damages the browser profile's storage through the host's Chromium",
  'full-disk.spec.ts': 'gives the in-process core a failing file system',
  'faults.spec.ts': "shortens the in-process core's HTTP timeouts",
  'key-origin.spec.ts': 'gives the in-process core another resources folder',
  'proxy.spec.ts':
    'points the in-process core at a proxy through HTTPS_PROXY (Electron asks Chromium: covered by unit tests)',
  'two-tabs.spec.ts': 'opens a second browser tab of the same origin',
  'export.spec.ts': "exports through the browser's download (Electron: the save dialog, electron/desktop.spec.ts)",
  'print.spec.ts':
    "prints through the browser's print (Electron: printToPDF of the print view, electron/desktop.spec.ts)",
  'categories.spec.ts': "exports category names through the browser's download",
  'screenshots.spec.ts': "takes the README's screenshots in the browser host",
  'toolkit-screenshots.spec.ts': "takes the README's screenshots in the browser host",
  'screens.spec.ts': 'grants clipboard permissions to a browser context',
  'update-waits.spec.ts':
    "gives the in-process core an updater that records what it is told (Electron: the packaged app's feed)",
  'pseudo-locale.spec.ts':
    "reaches its states through the in-process core (a proxy, an updater, a failing service) and the browser's storage",
};

/** How to start the built app in Electron for one test. */
export interface ElectronLaunchPlan {
  executablePath: string;
  /** Electron's own arguments: the built main process (Playwright adds --inspect and the debugging port). */
  args: string[];
  env: Record<string, string>;
}

export interface ElectronLaunchInput {
  binary: ElectronBinary;
  /** The build of this run (`ADOPTION_E2E_OUT`): main/, preload/, renderer/. */
  outDir: string;
  /** The test's data folder, the Local demo address and the keychain entry (development overrides). */
  dataDir: string;
  localDemoUrl: string;
  keychainService: string;
  env: NodeJS.ProcessEnv;
}

export type ElectronLaunch = { ok: true; plan: ElectronLaunchPlan } | { ok: false; reason: string };

export function electronLaunchPlan(input: ElectronLaunchInput): ElectronLaunch {
  if (!input.binary.found) return { ok: false, reason: `Electron binary not installed: ${input.binary.reason}` };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.env)) {
    // Nothing that would make Electron a plain Node, preload code into it or point it elsewhere.
    if (value === undefined || name === 'ELECTRON_RUN_AS_NODE' || name === 'NODE_OPTIONS') continue;
    if (name === 'ELECTRON_RENDERER_URL') continue;
    env[name] = value;
  }
  Object.assign(env, {
    ADOPTION_USER_DATA_DIR: input.dataDir,
    ADOPTION_LOCAL_DEMO_URL: input.localDemoUrl,
    ADOPTION_KEYCHAIN_SERVICE: input.keychainService,
  });
  return {
    ok: true,
    plan: { executablePath: input.binary.path, args: [join(input.outDir, 'main', 'index.js')], env },
  };
}
