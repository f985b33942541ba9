/**
 * Finds the Electron binary without `require('electron')` (which would try to download it):
 * `$ELECTRON_OVERRIDE_DIST_PATH`, else `node_modules/electron/dist/<path.txt>`. Used by
 * `npm run demo` and the Electron e2e project.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type ElectronBinary = { found: true; path: string } | { found: false; reason: string };

/** The executable's name inside a dist folder, as electron's own install script writes to path.txt. */
function executableName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

export function findElectronBinary(
  options: { from?: string; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {},
): ElectronBinary {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const path = join(override, executableName(platform));
    return existsSync(path)
      ? { found: true, path }
      : { found: false, reason: `ELECTRON_OVERRIDE_DIST_PATH is set but ${path} does not exist` };
  }
  let packageJson: string;
  try {
    packageJson = createRequire(options.from ?? join(process.cwd(), 'package.json')).resolve('electron/package.json');
  } catch {
    return { found: false, reason: 'the electron package is not installed' };
  }
  const dir = dirname(packageJson);
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) {
    return { found: false, reason: `${pathFile} is missing (the Electron binary was never downloaded)` };
  }
  const path = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? { found: true, path } : { found: false, reason: `${path} does not exist` };
}
