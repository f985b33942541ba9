/**
 * The app as the Chromium benches run it: the browser host over a data folder of the bench's own,
 * the Local demo profile's key bound to the service's address (kept in memory, no keychain), and
 * Debian's Chromium with the e2e suite's arguments. The service is the caller's: some benches stop
 * and start it, one has none.
 */
import { type Browser, chromium } from '@playwright/test';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { storeBoundKey } from '../../../electron/core/keys/bound-key';
import { MemorySecretStore } from '../../../electron/core/keys/memory-secret-store';
import { type AppOnHost, startAppOnHost } from '../../../electron/host';
import { CHROMIUM_ARGS } from '../../../playwright.config';

const RENDERER_DIR = resolve(import.meta.dirname, '../../../out/renderer');
/** What the benches' results say of the browser. */
export const BENCH_BROWSER = '/usr/bin/chromium headless (playwright.config.ts CHROMIUM_ARGS)';

export interface BenchApp {
  host: AppOnHost['host'];
  browser: Browser;
  /** Closes Chromium and the host, and removes the data folder. */
  close(): Promise<void>;
}

export async function startBenchApp(options: {
  /** A folder of the bench's own (removed by `close`). */
  dataDir: string;
  serviceUrl: string;
  key: string;
  logError?: (message: string) => void;
}): Promise<BenchApp> {
  const secretStore = new MemorySecretStore();
  await storeBoundKey(secretStore, 'local', options.serviceUrl, options.key);
  const { host, stop } = await startAppOnHost({
    dataDir: options.dataDir,
    secretStore,
    localDemoUrl: options.serviceUrl,
    rendererDir: RENDERER_DIR,
    logError: options.logError ?? ((message) => console.error(message)),
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  return {
    host,
    browser,
    async close() {
      await browser.close();
      await stop();
      await rm(options.dataDir, { recursive: true, force: true });
    },
  };
}
