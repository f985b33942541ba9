/**
 * The whole app core served by the browser host, in this Node process: what `npm run host`,
 * `npm run demo`, the e2e fixtures and the benchmarks start. Node's own `fetch` and the
 * project's `resources/` folder unless told otherwise.
 */
import { join } from 'node:path';
import { createAppCore, type AppCore, type AppCoreOptions } from '../core/app-core';
import { startBrowserHost, type BrowserHost } from './server';

export const PROJECT_RESOURCES_DIR = join(import.meta.dirname, '../../resources');

export interface AppOnHostOptions extends Omit<AppCoreOptions, 'fetch' | 'resourcesDir'> {
  fetch?: typeof fetch;
  resourcesDir?: string;
  /** The built renderer (default `out/renderer`). */
  rendererDir?: string;
  /** Port on 127.0.0.1 (default: any free port). */
  port?: number;
}

export interface AppOnHost {
  readonly core: AppCore;
  readonly host: BrowserHost;
  stop(): Promise<void>;
}

export async function startAppOnHost(options: AppOnHostOptions): Promise<AppOnHost> {
  const { rendererDir, port, fetch = globalThis.fetch, resourcesDir = PROJECT_RESOURCES_DIR, ...coreOptions } = options;
  const core = await createAppCore({ ...coreOptions, fetch, resourcesDir });
  let host: BrowserHost;
  try {
    host = await startBrowserHost({
      router: core.router,
      events: core.events,
      ...(rendererDir ? { rendererDir } : {}),
      ...(port !== undefined ? { port } : {}),
      ...(options.logError ? { logError: options.logError } : {}),
    });
  } catch (error) {
    await core.dispose();
    throw error;
  }
  return {
    core,
    host,
    async stop() {
      await host.stop();
      await core.dispose();
    },
  };
}
