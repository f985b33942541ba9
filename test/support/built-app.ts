/**
 * The built app (`out/`: main, preload, renderer) that a few unit tests read. `npm test` and every
 * CI job build it before the unit suites; a test run on its own builds it when it is missing.
 * electron-vite is started as scripts/lib/electron-vite.ts says (this Node and its JS bin: every system).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { electronViteCommand } from '../../scripts/lib/electron-vite';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Builds out/ with electron-vite when out/main/index.js is missing; rejects when the build fails. */
export async function buildAppIfMissing(): Promise<void> {
  if (existsSync(join(ROOT, 'out', 'main', 'index.js'))) return;
  const { command, args } = electronViteCommand(ROOT, ['build']);
  const build = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((done, fail) => {
    build.once('error', fail);
    build.once('close', done);
  });
  if (code !== 0) throw new Error(`electron-vite build exited with ${code}`);
}
