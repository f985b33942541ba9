/**
 * Builds the app once per Playwright run into a fresh folder `out/e2e-XXXXXX/` and publishes
 * it as `ADOPTION_E2E_OUT` to the workers, so e2e runs test the current sources and never
 * overwrite `out/main|preload|renderer` (other runs and engineers may be using them). The
 * folder is an app folder Electron starts as `npm run demo` starts the repository: its own
 * package.json (support/app-kind.ts e2eAppPackage) and resources/profiles.json (read from the app
 * path, startup-settings.ts). It is inside the repository so the built main process resolves
 * `node_modules` from the root. `ADOPTION_E2E_OUT=<dir>` set beforehand skips the build and uses
 * that folder (it must hold main/, preload/ and renderer/; the package.json is written if missing).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findElectronBinary } from '../../../scripts/lib/electron-binary';
import { electronViteCommand } from '../../../scripts/lib/electron-vite';
import { PROFILES_FILE } from '../../../electron/main/startup-settings';
import { appKindFrom, e2eAppPackage, electronPresence, oneLineError } from './app-kind';

const ROOT = resolve(import.meta.dirname, '../../..');

export default function globalSetup(): (() => void) | undefined {
  if (appKindFrom(process.env) === 'electron') {
    const presence = electronPresence(findElectronBinary(), process.env);
    // Under ADOPTION_REQUIRE_ELECTRON=1 (CI) the run stops here, before any test, with that one line
    // (Playwright prints a global setup error's stack: it is the message alone).
    if (presence.kind === 'fail') throw oneLineError(presence.message);
    // The Electron run without Electron: every test skips itself with the reason (fixtures.ts), nothing to build for.
    if (presence.kind === 'skip') {
      console.log(`[electron e2e] skipped: ${presence.reason}`);
      return undefined;
    }
  }
  const given = process.env.ADOPTION_E2E_OUT;
  if (given) {
    if (!existsSync(join(given, 'renderer', 'index.html')))
      throw new Error(`ADOPTION_E2E_OUT=${given} holds no renderer/index.html`);
    if (!existsSync(join(given, 'package.json'))) writeAppFolder(given, ROOT);
    return undefined;
  }
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, 'out', 'e2e-'));
  // Node with electron-vite's JS bin: the `.bin` shim cannot be spawned on Windows (scripts/lib/electron-vite.ts).
  const build = electronViteCommand(ROOT, ['build', '--outDir', outDir]);
  const result = spawnSync(build.command, build.args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('electron-vite build failed before the e2e tests (see above)');
  writeAppFolder(outDir, ROOT);
  process.env.ADOPTION_E2E_OUT = outDir;
  return () => rmSync(outDir, { recursive: true, force: true });
}

/** Makes the build in `outDir` an app folder: its package.json and the resources the app reads from its app path. */
export function writeAppFolder(outDir: string, root: string): void {
  const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(e2eAppPackage(rootPackage), null, 2)}\n`);
  mkdirSync(join(outDir, 'resources'), { recursive: true });
  copyFileSync(join(root, 'resources', PROFILES_FILE), join(outDir, 'resources', PROFILES_FILE));
}

/** Where the workers find the build. */
export function e2eOutDir(): string {
  const dir = process.env.ADOPTION_E2E_OUT;
  if (!dir) throw new Error('ADOPTION_E2E_OUT is not set: run the tests through playwright.config.ts');
  return dir;
}
