/**
 * The app's data folder outside Electron, matching Electron's `app.getPath('userData')`
 * for the product name "Adoption Desk": `$XDG_CONFIG_HOME/Adoption Desk` (or
 * `~/.config/Adoption Desk`) on Linux, `~/Library/Application Support/Adoption Desk` on
 * macOS, `%APPDATA%\Adoption Desk` on Windows.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PRODUCT_NAME = 'Adoption Desk';

export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = env.HOME ?? homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', PRODUCT_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), PRODUCT_NAME);
}
