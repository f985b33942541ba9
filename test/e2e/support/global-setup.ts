/**
 * Builds the app once per Playwright run into a fresh folder `out/e2e-XXXXXX/` and publishes
 * it as `ADOPTION_E2E_OUT` to the workers, so e2e runs test the current sources and never
 * overwrite `out/main|preload|renderer` (other runs and engineers may be using them). The
 * folder is inside the repository so the built main process resolves `node_modules` and
 * `"type": "module"` from the root package.json (Electron runs it from there). `ADOPTION_E2E_OUT=<dir>` set beforehand
 * skips the build and uses that folder (it must hold main/, preload/ and renderer/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findElectronBinary } from '../../../scripts/lib/electron-binary';
import { electronViteCommand } from '../../../scripts/lib/electron-vite';
import { appKindFrom, electronPresence, oneLineError } from './app-kind';

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
    return undefined;
  }
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const outDir = mkdtempSync(join(ROOT, 'out', 'e2e-'));
  // Node with electron-vite's JS bin: the `.bin` shim cannot be spawned on Windows (scripts/lib/electron-vite.ts).
  const build = electronViteCommand(ROOT, ['build', '--outDir', outDir]);
  const result = spawnSync(build.command, build.args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('electron-vite build failed before the e2e tests (see above)');
  process.env.ADOPTION_E2E_OUT = outDir;
  return () => rmSync(outDir, { recursive: true, force: true });
}

/** Where the workers find the build. */
export function e2eOutDir(): string {
  const dir = process.env.ADOPTION_E2E_OUT;
  if (!dir) throw new Error('ADOPTION_E2E_OUT is not set: run the tests through playwright.config.ts');
  return dir;
}
