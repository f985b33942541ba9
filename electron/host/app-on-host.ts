/**
 * The whole app core served by the browser host, in this Node process: what `npm run host`,
 * `npm run demo`, the e2e fixtures and the benchmarks start. Node's own `fetch`, the proxy the
 * environment names (HTTPS_PROXY, HTTP_PROXY, NO_PROXY) and the project's `resources/` folder
 * unless told otherwise. With `stablePort` the host keeps one
 * origin per data folder (host-port.ts), and recovers once the queue an earlier version left at
 * its old address, http://127.0.0.1:PORT (earlier-origin.ts).
 */
import { join } from 'node:path';
import { type AppCore, type AppCoreOptions, createAppCore, envProxyResolver } from '../core';
import { EarlierQueueRecovery, planEarlierRecovery } from './earlier-origin';
import { otherPortNotice, PortTakenError, readRememberedAddress, rememberAddress } from './host-port';
import { AddressTakenError } from './loopback-listen';
import { newSiteName } from './request-guard';
import { type BrowserHost, startBrowserHost } from './server';

export const PROJECT_RESOURCES_DIR = join(import.meta.dirname, '../../resources');

export interface AppOnHostOptions extends Omit<AppCoreOptions, 'fetch' | 'builtIns'> {
  fetch?: typeof fetch;
  /** The folder whose `profiles.json` holds Production and Staging (default: the project's `resources/`). */
  resourcesDir?: string;
  /** The built renderer (default `out/renderer`). */
  rendererDir?: string;
  /** Port on 127.0.0.1 and [::1] (default: the remembered one with `stablePort`, else any free port). */
  port?: number;
  /** Remember the port in the data folder and start on it again (`npm run host`, `npm run demo`). */
  stablePort?: boolean;
}

export interface AppOnHost {
  readonly core: AppCore;
  readonly host: BrowserHost;
  /** Something staff should know about the address (another port than this data folder's usual one), or null. */
  readonly notice: string | null;
  stop(): Promise<void>;
}

export async function startAppOnHost(options: AppOnHostOptions): Promise<AppOnHost> {
  const { rendererDir, port: asked, stablePort = false, fetch = globalThis.fetch, ...rest } = options;
  const { resourcesDir = PROJECT_RESOURCES_DIR, ...coreOptions } = rest;
  const remembered = stablePort ? await readRememberedAddress(options.dataDir) : null;
  const port = asked ?? remembered?.port ?? 0;
  const logError = options.logError ?? ((message: string) => console.error(message));
  // One name per data folder (remembered like the port), a new one for a host that keeps none.
  const siteName = remembered?.site ?? newSiteName();
  // The organisation's proxy as HTTPS_PROXY / HTTP_PROXY / NO_PROXY say (as curl reads them).
  const proxy = coreOptions.proxy ?? envProxyResolver(process.env);
  const builtIns = { file: join(resourcesDir, 'profiles.json') };
  const core = await createAppCore({ ...coreOptions, proxy, fetch, builtIns });
  // Decided once the core holds the data folder, and before browser-host.json is rewritten below
  // (a file from before names says "certain"): earlier-origin.ts.
  const earlierState = stablePort
    ? await planEarlierRecovery(options.dataDir, remembered).catch((error: unknown) => {
        logError(
          `browser host: ${options.dataDir} could not say whether an earlier version left a queue (${String(error)})`,
        );
        return null;
      })
    : null;
  const earlierQueue =
    earlierState?.state === 'pending' && earlierState.port === port
      ? new EarlierQueueRecovery({ dataDir: options.dataDir, state: earlierState, core, logError })
      : null;
  let host: BrowserHost;
  try {
    host = await startBrowserHost({
      router: core.router,
      events: core.events,
      port,
      siteName,
      earlierQueue,
      ...(rendererDir ? { rendererDir } : {}),
      ...(options.logError ? { logError: options.logError } : {}),
    });
  } catch (error) {
    await core.dispose();
    // On the remembered port, say where this data folder's queue is too.
    throw stablePort && error instanceof AddressTakenError && port === remembered?.port
      ? new PortTakenError(port, error.address, remembered.site, options.dataDir)
      : error;
  }
  if (stablePort && (remembered === null || remembered.site === null)) {
    await rememberAddress(options.dataDir, remembered?.port ?? host.port, siteName).catch((error: unknown) =>
      logError(
        `browser host: the port could not be remembered in ${options.dataDir} (${String(error)}); ` +
          'the next start may open at another address',
      ),
    );
  }
  return {
    core,
    host,
    notice:
      remembered !== null && remembered.port !== host.port ? otherPortNotice(remembered, host.port, siteName) : null,
    async stop() {
      await host.stop();
      await core.dispose();
    },
  };
}
