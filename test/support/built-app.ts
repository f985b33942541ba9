/**
 * The built app (`out/`: main, preload, renderer) that a few unit tests read. `npm test` and every
 * CI job build it before the unit suites; a test run on its own builds it when it is missing.
 *
 * electron-vite is started by its JavaScript entry with this Node: `npx` is `npx.cmd` on Windows and
 * node_modules/.bin/electron-vite a shell script, neither of which `spawn` starts without a shell.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const ELECTRON_VITE = join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');

/** Builds out/ with electron-vite when out/main/index.js is missing; rejects when the build fails. */
export async function buildAppIfMissing(): Promise<void> {
  if (existsSync(join(ROOT, 'out', 'main', 'index.js'))) return;
  const build = spawn(process.execPath, [ELECTRON_VITE, 'build'], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((done, fail) => {
    build.once('error', fail);
    build.once('close', done);
  });
  if (code !== 0) throw new Error(`electron-vite build exited with ${code}`);
}
