/**
 * More than one app in one test: "devices" (each its own app core + browser host, data folder
 * and browser context, all talking to one local service, as laptops at one event share a key)
 * and extra tabs of one host. Every page reaches its host through `openHost`, the one place
 * that knows how: through a one-time launch URL, which gives the page's browser context the
 * host's session (so a further tab of that context could also open the plain origin).
 *
 * `FetchCutter` wraps Node's fetch for one device's core, so a test can cut one creation at a
 * chosen point and hold the device's later requests until the test lets them through.
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeBoundKey } from '../../../electron/core/keys/bound-key';
import type { SecretStore } from '../../../electron/core/keys/secret-store';
import { type AppOnHost, startAppOnHost } from '../../../electron/host';
import type { E2eService } from '../fixtures';
import { e2eOutDir } from './global-setup';

/** A host as the fixtures give it (`launchUrl`) or as `startAppOnHost` does (`createLaunchUrl`). */
export type LaunchableHost = { launchUrl(): string } | { createLaunchUrl(): string };

/** Opens the app of `host` in `page`. */
export async function openHost(page: Page, host: LaunchableHost): Promise<void> {
  await page.goto('launchUrl' in host ? host.launchUrl() : host.createLaunchUrl());
}

export interface Device {
  readonly app: AppOnHost;
  readonly context: BrowserContext;
  readonly page: Page;
  stop(): Promise<void>;
}

export interface DeviceOptions {
  browser: Browser;
  service: E2eService;
  /** Holds the service's key for the Local demo profile (shared by every device, as at an event). */
  secretStore: SecretStore;
  fetch?: typeof fetch;
}

/** A second (third, …) laptop: its own data folder, core, host and browser context. */
export async function startDevice(options: DeviceOptions): Promise<Device> {
  const dataDir = mkdtempSync(join(tmpdir(), 'adoption-e2e-device-'));
  await storeBoundKey(options.secretStore, 'local', options.service.url, options.service.key);
  const app = await startAppOnHost({
    dataDir,
    secretStore: options.secretStore,
    localDemoUrl: options.service.url,
    rendererDir: join(e2eOutDir(), 'renderer'),
    logError: (message) => console.error(message),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const context = await options.browser.newContext();
  const page = await context.newPage();
  await openHost(page, app.host);
  return {
    app,
    context,
    page,
    async stop() {
      await context.close().catch(() => undefined);
      await app.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * How a creation is cut: `refused` as when nothing listens (the request certainly never left,
 * exactly the error Node's fetch gives: `fetch failed` caused by `ECONNREFUSED`); `lost` the
 * request never reaches the service but the app sees a dropped connection (it cannot tell);
 * `after-stored` the service stores the animal and the answer is lost on the way back.
 */
export type CutKind = 'refused' | 'lost' | 'after-stored';

const dropped = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) });
const refused = () =>
  new TypeError('fetch failed', {
    cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED' }),
  });

function isCreation(input: Parameters<typeof fetch>[0], init?: RequestInit): boolean {
  const url = input instanceof Request ? input.url : String(input);
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  return method === 'POST' && new URL(url).pathname.endsWith('/pets');
}

export class FetchCutter {
  #cut: { kind: CutKind; done: () => void } | null = null;
  #gate: Promise<void> | null = null;
  #open: () => void = () => undefined;

  constructor(private readonly real: typeof fetch = globalThis.fetch) {}

  /** Cuts the next creation; resolves once it was cut. Requests after it are held (see `release`). */
  cutNextCreation(kind: CutKind): Promise<void> {
    return new Promise((done) => (this.#cut = { kind, done }));
  }

  /** Lets every held request (and every later one) through. */
  release(): void {
    this.#open();
    this.#gate = null;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    if (this.#gate) await this.#gate;
    const cut = this.#cut;
    if (!cut || !isCreation(input, init)) return this.real(input, init);
    this.#cut = null;
    this.#gate = new Promise((open) => (this.#open = open));
    try {
      if (cut.kind === 'refused') throw refused();
      if (cut.kind === 'lost') throw dropped();
      const response = await this.real(input, init);
      await response.text();
      throw dropped();
    } finally {
      cut.done();
    }
  };
}
