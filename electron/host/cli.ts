/**
 * `npm run host -- [--port N] [--data-dir DIR] [--local-demo-url URL] [--keychain-service NAME]`:
 * the whole app in a plain browser. Serves the built renderer (`out/renderer`) and the app
 * core on this computer's loopback addresses (127.0.0.1 and [::1]), on the port this data
 * folder used before (host-port.ts). The first line of stdout is the one-time launch URL to open
 * (it carries the launch secret: only the browser that opens it gets in); Enter prints another
 * one. Stops on Ctrl+C.
 */
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { errorMessage } from '../../src/shared/basics/errors';
import { t } from '../../src/shared/i18n';
import { defaultDataDir, openOsKeychain } from '../core';
import { startAppOnHost } from './app-on-host';
import { useEnvLanguage } from './env-language';

const HELP = `Usage: npm run host -- [options]
  --port N                  port on 127.0.0.1 and [::1] (default: the one this data folder used before,
                            else any free port, then remembered)
  --data-dir DIR            the app's data folder (default: ${defaultDataDir()})
  --local-demo-url URL      address of the Local demo service (default http://127.0.0.1:4010/v1)
  --keychain-service NAME   keychain service name for the API keys (default "Adoption Desk")
  --renderer-dir DIR        the built renderer (default out/renderer)
`;

export interface HostCliOptions {
  /** undefined: the data folder's own port. */
  port: number | undefined;
  dataDir: string;
  localDemoUrl: string | undefined;
  keychainService: string | undefined;
  rendererDir: string;
}

export function parseHostArgs(argv: string[]): HostCliOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'local-demo-url': { type: 'string' },
      'keychain-service': { type: 'string' },
      'renderer-dir': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return null;
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error('--port must be a whole number 0–65535');
  }
  return {
    port,
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    localDemoUrl: values['local-demo-url'],
    keychainService: values['keychain-service'],
    rendererDir: resolve(values['renderer-dir'] ?? 'out/renderer'),
  };
}

async function main(): Promise<void> {
  let options: HostCliOptions | null;
  try {
    options = parseHostArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`host: ${(error as Error).message}\n\n${HELP}`);
    process.exit(2);
  }
  if (!options) {
    process.stdout.write(HELP);
    return;
  }
  // What this command line prints is in the system's language (LANG…); the window may choose another later.
  await useEnvLanguage();
  const { host, notice, stop } = await startAppOnHost({
    dataDir: options.dataDir,
    secretStore: await openOsKeychain(options.keychainService),
    ...(options.localDemoUrl ? { localDemoUrl: options.localDemoUrl } : {}),
    rendererDir: options.rendererDir,
    ...(options.port !== undefined ? { port: options.port } : {}),
    stablePort: true,
  });
  process.stdout.write(
    `${host.createLaunchUrl()}\n` +
      `${t('host.running', { url: host.url, dataDir: options.dataDir })}\n` +
      (notice ? `${notice}\n` : ''),
  );
  // Enter prints a fresh one-time link (another browser, or a browser that was closed). This line
  // stays English whatever the language: tools read it (test/e2e/support/host-process.ts).
  createInterface({ input: process.stdin }).on('line', () =>
    process.stdout.write(`Another one-time link: ${host.createLaunchUrl()}\n`),
  );
  let stopping = false;
  const shutdown = (): void => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    process.stderr.write(`host: ${errorMessage(error)}\n`);
    process.exit(1);
  });
}
