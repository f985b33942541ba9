/**
 * One e2e suite, two ways to open the app (issue 21): through the loopback browser host in
 * Chromium (`playwright.config.ts`, everywhere) or as the desktop app in Electron through
 * Playwright's `_electron.launch` (`playwright.electron.config.ts`, where the Electron binary
 * exists: the project's GitHub workflow). The config says which by `ADOPTION_E2E_APP` before the
 * fixtures load; everything that decides how the app is opened is here, free of Playwright, so it
 * is unit-tested (test/scripts/e2e-app-kind.test.ts).
 */
// @ts-expect-error -- a plain ESM module of the test runner, without types
import * as suite from '../../../scripts/lib/electron-suite.mjs';
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
 * Set on every CI job (the GitHub workflows): without the Electron binary (or the packaged app of
 * the `packaged` project) the Electron run FAILS, naming what is missing, instead of skipping. On
 * our machines, where the binary cannot be downloaded, it is unset and those tests skip. One
 * definition, shared with scripts/test-all.mjs: scripts/lib/electron-suite.mjs.
 */
export const REQUIRE_ELECTRON_ENV: string = suite.REQUIRE_ELECTRON_ENV;
export const electronRequired = suite.electronRequired as (env: NodeJS.ProcessEnv) => boolean;

/** What the Electron project does: run, skip with the reason, or fail with one line naming what is missing. */
export type Presence = { kind: 'run' } | { kind: 'skip'; reason: string } | { kind: 'fail'; message: string };

/** Whether the Electron project can run, from the binary found (or not) and the environment. */
export function electronPresence(binary: ElectronBinary, env: NodeJS.ProcessEnv): Presence {
  if (binary.found) return { kind: 'run' };
  if (electronRequired(env))
    return {
      kind: 'fail',
      message: `${REQUIRE_ELECTRON_ENV}=1 but the Electron binary is not installed: ${binary.reason}`,
    };
  return { kind: 'skip', reason: `Electron binary not installed: ${binary.reason}` };
}

/** An error whose whole report is its one line (Playwright prints a global setup error's stack). */
export function oneLineError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/**
 * Specs about the browser host alone, with the reason: the Electron project does not run them.
 * Every other spec in test/e2e/ runs in both projects, with the same steps and assertions.
 */
export const HOST_ONLY_SPECS: Readonly<Record<string, string>> = {
  'app-smoke.spec.ts':
    'the launch link and the session cookie exist in the browser host only (Electron: electron/smoke.spec.ts)',
  'list-filter-held.spec.ts':
    "holds the service's answer to a new filter with a route of the browser host's /api/ (Electron asks main over IPC: the store's test holds it there)",
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
  'meter-first-look.spec.ts':
    "holds the page's first look at the core (POST /api/governorSnapshot) with Playwright's routing; Electron's renderer asks main over IPC, which a test cannot hold (the store's rule: test/src/shell/navigation-and-governor.test.ts)",
  'page-load.spec.ts':
    "loads the browser host's page in a Chromium of its own and reads its process list (Electron's window loads app:// once a start)",
  'check-needed.spec.ts':
    "runs two laptops as browser-host cores in the test process and cuts one core's Node fetch at a chosen point (FetchCutter); Electron's main takes no fetch from a test",
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

/**
 * The package.json global setup writes into the build folder, so that Electron starts the build as
 * an app folder, as `npm run demo` starts the repository (`electron .`) and as staff start the
 * package: default_app reads it for app.name (productName) and the version, and makes the folder
 * the app path (electron default_app/main.ts loadApplicationPackage, lines 100-143); `type` keeps
 * the ESM main an ES module. The build folder sits inside the repository (out/e2e-…), so
 * node_modules still resolve from the root.
 */
export function e2eAppPackage(root: Record<string, unknown>): Record<string, unknown> {
  return {
    name: root.name,
    productName: root.productName,
    version: root.version,
    type: root.type,
    main: './main/index.js',
    private: true,
  };
}

/** How to start the built app in Electron for one test. */
export interface ElectronLaunchPlan {
  executablePath: string;
  /** Electron's own arguments: the build's app folder (Playwright adds --inspect and the debugging port). */
  args: string[];
  env: Record<string, string>;
}

export interface ElectronLaunchInput {
  binary: ElectronBinary;
  /** The build of this run (`ADOPTION_E2E_OUT`): main/, preload/, renderer/ and its package.json (e2eAppPackage). */
  outDir: string;
  /** The test's data folder, the Local demo address and the keychain entry (development overrides). */
  dataDir: string;
  localDemoUrl: string;
  keychainService: string;
  env: NodeJS.ProcessEnv;
  /** The test's `locale` (Playwright's option, default en-US): the system language (`systemLanguageFor`). */
  locale?: string;
  platform?: NodeJS.Platform;
}

/** Playwright's `locale` when a test sets none (playwright/lib/index.js: `contextOptions.locale ?? "en-US"`). */
export const DEFAULT_LOCALE = 'en-US';

export type SystemLanguage = { kind: 'env'; env: Record<string, string> } | { kind: 'stub'; languages: string[] };

/**
 * How a test's `locale` becomes the system language that Electron's main reads with
 * `app.getPreferredSystemLanguages()` (the browser project's is `navigator.languages`, from the
 * same `locale`):
 * - Linux: per process, from the environment. g_get_language_names reads LANGUAGE first, then
 *   LC_ALL, LC_MESSAGES and LANG (electron shell/common/language_util_linux.cc:18-21), and
 *   "es_MX" comes back as "es-MX" (base::i18n::GetCanonicalLocale, :31).
 * - macOS reads `[NSLocale preferredLanguages]` (language_util_mac.mm:17) and Windows
 *   `GlobalizationPreferences.Languages` (language_util_win.cc:19-34): the user account's
 *   settings, which no variable or switch sets for one process. There the fixture replaces the
 *   method on main's `app` object (an own property, set by electron_api_app.cc:2015, and the
 *   core calls it on each ask: electron/main/index.ts) and reloads the window if its language changes.
 */
export function systemLanguageFor(locale: string, platform: NodeJS.Platform): SystemLanguage {
  if (platform === 'linux') return { kind: 'env', env: { LANGUAGE: locale.replaceAll('-', '_') } };
  return { kind: 'stub', languages: [locale] };
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
  const system = systemLanguageFor(input.locale ?? DEFAULT_LOCALE, input.platform ?? process.platform);
  if (system.kind === 'env') Object.assign(env, system.env);
  Object.assign(env, {
    ADOPTION_USER_DATA_DIR: input.dataDir,
    ADOPTION_LOCAL_DEMO_URL: input.localDemoUrl,
    ADOPTION_KEYCHAIN_SERVICE: input.keychainService,
  });
  return {
    ok: true,
    plan: { executablePath: input.binary.path, args: [input.outDir], env },
  };
}
