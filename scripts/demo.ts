/**
 * `npm run demo [-- --browser] [-- --no-open]`: Adoption Desk on the Local demo profile in
 * one command. Builds the app if needed, starts the local Animal Adoption Service (40 sample
 * animals, key `local-demo-key` on the Free plan, data in <app data>/demo-service.json), stores
 * the demo key in the OS keychain for the Local demo profile (bound to the service's origin),
 * then launches Electron, or, where the Electron binary is missing, the browser host (printing
 * its one-time launch URL and opening it in a browser).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_KEYCHAIN_SERVICE, defaultDataDir, openOsKeychain, storeBoundKey } from '../electron/core';
import { startAppOnHost, useEnvLanguage } from '../electron/host';
import { errorMessage } from '../src/shared/basics/errors';
import { formatNumber, t } from '../src/shared/i18n';
import { type RunningService, startService } from '../test/service/index';
import { checkKeychain, INSIDE_PRIVATE_KEYRING, keychainFix } from './lib/demo-keychain';
import { appAddressLine, serviceAddressLine } from './lib/demo-lines';
import { findElectronBinary } from './lib/electron-binary';
import { electronViteCommand } from './lib/electron-vite';
import { openInBrowser } from './lib/open-browser';

const ROOT = resolve(import.meta.dirname, '..');
// Everything the app shows is scrubbed of keys (electron/core/keys/scrub.ts): a key that is a plain
// word ("demo") would be hidden inside ordinary text such as the profile name "Local demo".
const DEMO_KEY = 'local-demo-key';
const DEMO_PORT = 4010;
// When re-run inside a private keyring, count from the first start.
const started = Number(process.env.ADOPTION_DEMO_STARTED_AT) || Date.now();
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const elapsedSeconds = (): number => (Date.now() - started) / 1000;
/** As the address line has always written it ("2.1 s"). */
const seconds = (): string => `${elapsedSeconds().toFixed(1)} s`;
/** In the system's language ("2.1 s", "2,1 s"). */
const secondsSaid = (): string =>
  `${formatNumber(elapsedSeconds(), { minimumFractionDigits: 1, maximumFractionDigits: 1 })} s`;

const { values: flags } = parseArgs({
  options: {
    browser: { type: 'boolean', default: false },
    'no-open': { type: 'boolean', default: false },
    'host-port': { type: 'string' },
  },
});

function buildIfNeeded(): void {
  const needed = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
  if (needed.every((file) => existsSync(join(ROOT, file)))) return;
  say(t('demo.building'));
  // Node with electron-vite's JS bin: the `.bin` shim cannot be spawned on Windows (lib/electron-vite.ts).
  const build = electronViteCommand(ROOT, ['build']);
  const result = spawnSync(build.command, build.args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(t('demo.buildFailed'));
}

/** Re-runs this script inside a private gnome-keyring session; returns its exit code. */
function rerunInPrivateKeyring(): number {
  say(t('demo.privateKeyring'));
  const tsx = join(ROOT, 'node_modules/.bin/tsx');
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts/with-keyring.mjs'), tsx, import.meta.filename, ...process.argv.slice(2)],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, [INSIDE_PRIVATE_KEYRING]: '1', ADOPTION_DEMO_STARTED_AT: String(started) },
    },
  );
  return result.status ?? 1;
}

async function startDemoService(dataDir: string): Promise<RunningService> {
  const options = { keys: { [DEMO_KEY]: 'free' }, seedAnimals: 40, dataFile: join(dataDir, 'demo-service.json') };
  try {
    return await startService({ ...options, port: DEMO_PORT });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startService({ ...options, port: 0 });
  }
}

async function runBrowserHost(dataDir: string, service: RunningService, keychainService: string): Promise<void> {
  const { host, notice, stop } = await startAppOnHost({
    dataDir,
    secretStore: await openOsKeychain(keychainService),
    localDemoUrl: service.url,
    rendererDir: join(ROOT, 'out/renderer'),
    ...(flags['host-port'] !== undefined ? { port: Number(flags['host-port']) } : {}),
    stablePort: true,
  });
  // A one-time link: only the browser that opens it gets into the app (electron/host/launch-session.ts).
  const launchUrl = host.createLaunchUrl();
  say(appAddressLine(launchUrl, seconds()));
  if (notice) say(notice);
  const opener = flags['no-open'] ? null : openInBrowser(launchUrl);
  say(opener ? t('demo.openedWith', { opener }) : t('demo.openLink'));
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await stop();
}

function runElectron(binary: string, service: RunningService, keychainService: string): Promise<number> {
  say(t('demo.startingElectron', { elapsed: secondsSaid() }));
  const child = spawn(binary, ['.'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ADOPTION_LOCAL_DEMO_URL: service.url, ADOPTION_KEYCHAIN_SERVICE: keychainService },
  });
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  process.once('SIGINT', forward('SIGINT'));
  process.once('SIGTERM', forward('SIGTERM'));
  return new Promise((done) => {
    child.on('error', (error) => {
      say(t('demo.electronFailed', { detail: error.message }));
      done(1);
    });
    child.on('exit', (code) => done(code ?? 0));
  });
}

async function main(): Promise<number> {
  // The lines staff read are in the system's language (LC_ALL, LC_MESSAGES, LANG); the two address
  // lines stay as they are (scripts/lib/demo-lines.ts).
  await useEnvLanguage();
  const keychainService = process.env.ADOPTION_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE;
  const keychain = await checkKeychain(keychainService);
  if (!keychain.usable && keychain.canStartPrivateKeyring) return rerunInPrivateKeyring();

  buildIfNeeded();
  const dataDir = defaultDataDir();
  // The staff member's alone, as the core makes it (electron/core/data-folder/private-modes.ts).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const service = await startDemoService(dataDir);
  say(serviceAddressLine(service.url, service.animalCount(), DEMO_KEY));
  try {
    if (keychain.usable) {
      await storeBoundKey(keychain.store, 'local', service.url, DEMO_KEY);
      say(t('demo.keySaved'));
    } else {
      say(`${keychainFix()}\n(keychain: ${keychain.detail})`);
    }
    const electron = flags.browser ? { found: false as const, reason: '--browser given' } : findElectronBinary();
    if (electron.found) return await runElectron(electron.path, service, keychainService);
    say(t('demo.noElectron'));
    await runBrowserHost(dataDir, service, keychainService);
    return 0;
  } finally {
    await service.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo: ${errorMessage(error)}\n`);
    process.exit(1);
  },
);
