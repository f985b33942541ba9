/**
 * Playwright fixtures for the whole app in Chromium, over the loopback browser host.
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
 *   origin, unless `storeKey` is false;
 * - `host`: the app core + browser host in this worker, Local demo pointed at `service`;
 *   `host.url` is its plain origin URL, `host.launchUrl()` mints a one-time launch URL;
 * - `app`: `page` opened on a launch URL (so the page's context holds the host's session
 *   cookie: `page.goto(host.url + '#/saved')`, `page.reload()` and more tabs of the context
 *   work), plus `consoleErrors` (console errors and uncaught page errors seen so far).
 *
 * Override per file with `test.use({ serviceOptions: { seedAnimals: 0, plan: 'pro' } })`,
 * `test.use({ storeKey: false })` or `test.use({ coreOptions: { http: { headersTimeoutMs: 2000 } } })`.
 */
import { expect, type Page, test as base } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppCore } from '../../electron/core/app-core';
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { openOsKeychain } from '../../electron/core/keys/os-keychain';
import type { SecretStore } from '../../electron/core/keys/secret-store';
import { type AppOnHostOptions, type BrowserHost, startAppOnHost } from '../../electron/host';
import { type RunningService, type ServiceOptions, startService } from '../service/index';
import { e2eOutDir } from './support/global-setup';

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
  /** The host's origin, `http://127.0.0.1:PORT/` (a page needs the session from a launch URL first). */
  readonly url: string;
  /** A fresh one-time launch URL: opening it gives the page's browser context the host's session. */
  launchUrl(): string;
  readonly core: AppCore;
  readonly browserHost: BrowserHost;
}

export interface E2eApp {
  readonly page: Page;
  readonly service: E2eService;
  readonly host: E2eHost;
  /** Console errors and uncaught page errors, in order. */
  readonly consoleErrors: string[];
}

/** Extra options of the in-process app core (e.g. shorter HTTP timeouts, another resources folder, a full disk). */
export type E2eCoreOptions = Partial<Pick<AppOnHostOptions, 'http' | 'resourcesDir' | 'journalFs' | 'proxy'>>;

interface Fixtures {
  serviceOptions: E2eServiceOptions;
  coreOptions: E2eCoreOptions;
  storeKey: boolean;
  dataDir: string;
  service: E2eService;
  keychainService: string;
  secretStore: SecretStore;
  host: E2eHost;
  app: E2eApp;
}

export const test = base.extend<Fixtures>({
  serviceOptions: [{ seedAnimals: 40 }, { option: true }],
  storeKey: [true, { option: true }],
  coreOptions: [{}, { option: true }],

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
    const store = await openOsKeychain(keychainService);
    await use(store);
    // Leave nothing behind in the keychain.
    await store.delete('local').catch(() => undefined);
  },

  host: async ({ dataDir, service, secretStore, storeKey, coreOptions }, use) => {
    if (storeKey) await storeBoundKey(secretStore, 'local', service.url, service.key);
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
    await use({ url: browserHost.url, launchUrl: () => browserHost.createLaunchUrl(), core, browserHost });
    await stop();
  },

  app: async ({ page, service, host }, use) => {
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const where = message.location().url;
      consoleErrors.push(where ? `${message.text()} (${where})` : message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(`${error.name}: ${error.message}`));
    await page.goto(host.launchUrl());
    await use({ page, service, host, consoleErrors });
  },
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
