/**
 * Playwright fixtures for the whole app, opened one of two ways (support/app-kind.ts): through
 * the loopback browser host in Chromium (playwright.config.ts), or as the desktop app in Electron
 * (playwright.electron.config.ts, where the Electron binary exists; elsewhere skipped with the
 * reason printed, or failed under ADOPTION_REQUIRE_ELECTRON=1). The specs are the same; a spec about one host only is listed in
 * `HOST_ONLY_SPECS`, which the Electron config leaves out (a test that skips itself in Electron
 * would count as not run there: scripts/lib/electron-suite.mjs).
 *
 * Each test gets, fresh and torn down afterwards:
 * - `dataDir`: an empty app data folder;
 * - `service`: the local Animal Adoption Service on a free port, seeded with
 *   `serviceOptions.seedAnimals` animals (default 40), one API key `e2e-<uuid>` on
 *   `serviceOptions.plan` (default `free`), its data file and request log in `dataDir`; it
 *   can be stopped and restarted on the same port (to test going offline and back);
 * - `keychainService`: a unique keychain service name (`Adoption Desk e2e <uuid>`) in the
 *   real OS keychain (run the tests inside `node scripts/with-keyring.mjs`), with the
 *   service's key stored for the Local demo profile (`local`), bound to the service's
 *   origin, unless `storeKey` is false; `secretStore` reaches it (in Electron through the
 *   Electron binary itself, support/electron-keychain.ts);
 * - `host`: the browser host: the app core + browser host in this worker, Local demo pointed at
 *   `service`; `host.url` is its plain origin URL, `host.launchUrl()` mints a one-time launch
 *   URL. Electron: the built app started by `_electron.launch` with the same data folder,
 *   address and keychain entry (`host.electronApp`); `host.url` is the page's `app://` URL;
 * - `app`: `page` opened on the app (browser host: on a launch URL, so the page's context holds
 *   the host's session cookie: `page.goto(host.url + '#/saved')`, `page.reload()` and more tabs
 *   of the context work; Electron: the app's window), plus `consoleErrors` (console errors and
 *   uncaught page errors seen so far).
 *
 * Playwright's `locale` option is the system's language in both: the browser's `navigator.languages`,
 * or what Electron's main reads with `app.getPreferredSystemLanguages()` (support/app-kind.ts
 * systemLanguageFor: LANGUAGE on Linux, main's answer replaced on macOS and Windows).
 *
 * Override per file with `test.use({ serviceOptions: { seedAnimals: 0, plan: 'pro' } })`,
 * `test.use({ storeKey: false })` or `test.use({ coreOptions: { http: { headersTimeoutMs: 2000 } } })`.
 */
import { _electron, type ElectronApplication, expect, type Page, test as base, type TestInfo } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppCore } from '../../electron/core/app-core';
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { openOsKeychain } from '../../electron/core/keys/os-keychain';
import type { SecretStore } from '../../electron/core/keys/secret-store';
import { type AppOnHostOptions, type BrowserHost, startAppOnHost } from '../../electron/host';
import { APP_PAGE_URL } from '../../electron/main/app-protocol';
import { matchLanguage } from '../../src/shared/i18n/languages';
import { findElectronBinary } from '../../scripts/lib/electron-binary';
import { type RunningService, type ServiceOptions, startService } from '../service/index';
import {
  type AppKind,
  appKindFrom,
  DEFAULT_LOCALE,
  electronLaunchPlan,
  electronPresence,
  oneLineError,
  systemLanguageFor,
} from './support/app-kind';
import { openKeychainThrough } from './support/electron-keychain';
import { e2eOutDir } from './support/global-setup';

/** How this run opens the app: the browser host, or Electron (set by the Playwright config). */
export const APP_KIND: AppKind = appKindFrom(process.env);

export interface E2eServiceOptions extends Omit<ServiceOptions, 'port' | 'keys' | 'dataFile' | 'logFile'> {
  /** The plan of the test's key (default `free`). */
  plan?: string;
}

export interface E2eService {
  /** Base URL ending in /v1. */
  readonly url: string;
  /** The test's API key. */
  readonly key: string;
  /** The service's request log (JSON lines), in the test's data folder. */
  readonly logFile: string;
  readonly running: RunningService;
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data file. */
  restart(): Promise<void>;
}

export interface E2eHost {
  /**
   * The page's address without a route: the browser host's origin, `http://ad-….localhost:PORT/` (a
   * page needs the session from a launch URL first); in Electron `app://adoption-desk/index.html`.
   */
  readonly url: string;
  /** A fresh one-time launch URL: opening it gives the page's browser context the host's session (browser host only). */
  launchUrl(): string;
  /** The in-process app core (browser host only). */
  readonly core: AppCore;
  readonly browserHost: BrowserHost;
  /** The Electron app (Electron only): `evaluate` runs in its main process. */
  readonly electronApp: ElectronApplication;
}

export interface E2eApp {
  readonly page: Page;
  readonly service: E2eService;
  readonly host: E2eHost;
  /** Console errors and uncaught page errors, in order. */
  readonly consoleErrors: string[];
}

/** Extra options of the in-process app core (e.g. shorter HTTP timeouts, another resources folder, a full disk). */
export type E2eCoreOptions = Partial<
  Pick<AppOnHostOptions, 'http' | 'sendSettlesMs' | 'resourcesDir' | 'journalFs' | 'proxy' | 'updates'>
>;

interface Fixtures {
  serviceOptions: E2eServiceOptions;
  coreOptions: E2eCoreOptions;
  storeKey: boolean;
  /**
   * Electron only: skips the test with the reason where the Electron binary is not installed, or
   * fails it naming the binary under ADOPTION_REQUIRE_ELECTRON=1.
   */
  electronPresent: void;
  dataDir: string;
  service: E2eService;
  keychainService: string;
  secretStore: SecretStore;
  host: E2eHost;
  app: E2eApp;
}

/** Where a step needs what only the browser host has. */
function hostOnly(what: string): never {
  throw new Error(`${what} exists in the browser host only: list this spec in HOST_ONLY_SPECS (support/app-kind.ts)`);
}

/** Starts the built app in Electron for this test's folder, address and keychain entry. */
export async function launchElectron(options: {
  dataDir: string;
  localDemoUrl: string;
  keychainService: string;
  testInfo: TestInfo;
  /** The system language, as Playwright's `locale` option (default en-US): see systemLanguageFor. */
  locale?: string;
}): Promise<ElectronApplication> {
  const launch = electronLaunchPlan({
    binary: findElectronBinary(),
    outDir: e2eOutDir(),
    dataDir: options.dataDir,
    localDemoUrl: options.localDemoUrl,
    keychainService: options.keychainService,
    env: process.env,
    ...(options.locale ? { locale: options.locale } : {}),
  });
  if (!launch.ok) {
    const presence = electronPresence(findElectronBinary(), process.env);
    if (presence.kind === 'skip') options.testInfo.skip(true, presence.reason);
    throw oneLineError(presence.kind === 'fail' ? presence.message : launch.reason);
  }
  return _electron.launch({ ...launch.plan, tracesDir: options.testInfo.outputPath('electron-traces') });
}

/** Console errors and uncaught page errors of `page`, as they come. */
function collectConsoleErrors(page: Page): string[] {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const where = message.location().url;
    consoleErrors.push(where ? `${message.text()} (${where})` : message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(`${error.name}: ${error.message}`));
  return consoleErrors;
}

const browserHostApp = async (
  { page, service, host }: { page: Page; service: E2eService; host: E2eHost },
  use: (app: E2eApp) => Promise<void>,
) => {
  const consoleErrors = collectConsoleErrors(page);
  await page.goto(host.launchUrl());
  await use({ page, service, host, consoleErrors });
};

// In Electron the page is the app's own window: this fixture never asks for Playwright's `page`
// (which would start a browser that is not the app).
const electronApp = async (
  { service, host, locale }: { service: E2eService; host: E2eHost; locale: string | undefined },
  use: (app: E2eApp) => Promise<void>,
) => {
  const page = await host.electronApp.firstWindow();
  const consoleErrors = collectConsoleErrors(page);
  // The window exists before main loads the page into it (main-process.ts: loadURL after createMainWindow).
  await page.waitForURL((url) => url.href.startsWith(APP_PAGE_URL));
  await page.waitForLoadState('domcontentloaded');
  const system = systemLanguageFor(locale ?? DEFAULT_LOCALE, process.platform);
  if (system.kind === 'stub') {
    // macOS, Windows: the system language is the account's (support/app-kind.ts systemLanguageFor),
    // so main's answer is replaced; the window asked at start, so it asks again if that changes it.
    const before = await host.electronApp.evaluate(({ app: electron }, languages) => {
      const asked = electron.getPreferredSystemLanguages();
      electron.getPreferredSystemLanguages = () => languages;
      return asked;
    }, system.languages);
    if (matchLanguage(before) !== matchLanguage(system.languages)) {
      await page.reload();
      await page.waitForLoadState('domcontentloaded');
    }
  }
  await use({ page, service, host, consoleErrors });
};

export const test = base.extend<Fixtures>({
  serviceOptions: [{ seedAnimals: 40 }, { option: true }],
  storeKey: [true, { option: true }],
  coreOptions: [{}, { option: true }],

  // An automatic fixture runs before the others: no service is started for a test that is skipped.
  // Global setup has already printed the reason once, or, under ADOPTION_REQUIRE_ELECTRON=1, stopped the run.
  electronPresent: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      if (APP_KIND === 'electron') {
        const presence = electronPresence(findElectronBinary(), process.env);
        if (presence.kind === 'fail') throw oneLineError(presence.message);
        if (presence.kind === 'skip') testInfo.skip(true, presence.reason);
      }
      await use();
    },
    { auto: true },
  ],

  // Playwright requires the object pattern even when a fixture uses no other fixture.
  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'adoption-e2e-data-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },

  service: async ({ dataDir, serviceOptions }, use) => {
    const { plan = 'free', ...rest } = serviceOptions;
    const key = `e2e-${randomUUID()}`;
    const logFile = join(dataDir, 'service-requests.log');
    const options: ServiceOptions = {
      ...rest,
      keys: { [key]: plan },
      dataFile: join(dataDir, 'service.json'),
      logFile,
    };
    let running: RunningService | null = await startService({ ...options, port: 0 });
    const port = running.port;
    const service: E2eService = {
      url: running.url,
      key,
      logFile,
      get running() {
        if (!running) throw new Error('the service is stopped');
        return running;
      },
      async stop() {
        await running?.stop();
        running = null;
      },
      async restart() {
        await running?.stop();
        running = await startService({ ...options, port });
      },
    };
    await use(service);
    await running?.stop();
  },

  // eslint-disable-next-line no-empty-pattern
  keychainService: async ({}, use) => {
    await use(`Adoption Desk e2e ${randomUUID()}`);
  },

  secretStore: async ({ keychainService }, use) => {
    // Electron: through the Electron binary under test, so that on macOS no key crosses binaries
    // (a Keychain prompt would block the run: support/electron-keychain.ts).
    const binary = APP_KIND === 'electron' ? findElectronBinary() : null;
    const store = binary?.found
      ? openKeychainThrough(binary.path, keychainService)
      : await openOsKeychain(keychainService);
    await use(store);
    // Leave nothing behind in the keychain.
    await store.delete('local').catch(() => undefined);
  },

  host: async ({ dataDir, service, secretStore, storeKey, coreOptions, keychainService, locale }, use, testInfo) => {
    if (storeKey) await storeBoundKey(secretStore, 'local', service.url, service.key);
    if (APP_KIND === 'electron') {
      const app = await launchElectron({
        dataDir,
        localDemoUrl: service.url,
        keychainService,
        testInfo,
        ...(locale ? { locale } : {}),
      });
      await use({
        url: APP_PAGE_URL,
        launchUrl: () => hostOnly('A launch link'),
        get core(): AppCore {
          return hostOnly('The in-process app core');
        },
        get browserHost(): BrowserHost {
          return hostOnly('The browser host');
        },
        electronApp: app,
      });
      // A test may have closed it already (to start it again).
      await app.close().catch(() => undefined);
      return;
    }
    const {
      core,
      host: browserHost,
      stop,
    } = await startAppOnHost({
      ...coreOptions,
      dataDir,
      secretStore,
      localDemoUrl: service.url,
      rendererDir: join(e2eOutDir(), 'renderer'),
      logError: (message) => console.error(message),
    });
    await use({
      url: browserHost.url,
      launchUrl: () => browserHost.createLaunchUrl(),
      core,
      browserHost,
      get electronApp(): ElectronApplication {
        return hostOnly('An Electron app') as never;
      },
    });
    await stop();
  },

  app: APP_KIND === 'electron' ? electronApp : browserHostApp,
});

export { expect };

/** The names of the first `limit` animals as the service lists them (for assertions). */
export async function serviceAnimalNames(service: E2eService, limit = 5): Promise<string[]> {
  const response = await fetch(`${service.url}/pets?limit=${limit}`, {
    headers: { Authorization: `Bearer ${service.key}` },
  });
  if (!response.ok) throw new Error(`the service answered ${response.status}`);
  const animals = (await response.json()) as { name: string }[];
  return animals.map((animal) => animal.name);
}

/** Another client of the same key spends `count` requests of the window behind the app's back. */
export async function spendRequests(service: E2eService, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await fetch(`${service.url}/pets?limit=1`, { headers: { Authorization: `Bearer ${service.key}` } });
  }
}
