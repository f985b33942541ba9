/**
 * How to run electron-vite's command line on every system: Node itself (`process.execPath`) with
 * the package's own JS bin, resolved from electron-vite's package.json `"bin"`. Never
 * `node_modules/.bin/electron-vite`: on Windows npm writes it as an extensionless sh script beside
 * `.cmd`/`.ps1` shims, which `spawn` without a shell cannot start. Nor
 * `require.resolve('electron-vite/bin/electron-vite.js')`: the package's `exports` names only
 * `.`, `./node` and `./package.json` (electron-vite 6.0.0), so that throws
 * ERR_PACKAGE_PATH_NOT_EXPORTED.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

export interface NodeCommand {
  command: string;
  args: string[];
}

/** `process.execPath <electron-vite's bin> ...args`, electron-vite resolved from `root` (the repository). */
export function electronViteCommand(root: string, args: string[], execPath: string = process.execPath): NodeCommand {
  const packageJson = createRequire(join(root, 'package.json')).resolve('electron-vite/package.json');
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8')) as { bin?: string | Record<string, string> };
  const relative = typeof bin === 'string' ? bin : bin?.['electron-vite'];
  if (!relative) throw new Error(`${packageJson} names no "electron-vite" bin`);
  return { command: execPath, args: [resolve(dirname(packageJson), relative), ...args] };
}
