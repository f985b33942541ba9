/**
 * What the main process starts with: the development overrides from the environment (only
 * when not packaged: a packaged app on a staff laptop never takes its data folder, keychain
 * entry, Local demo address or page from environment variables) and the folder whose
 * `profiles.json` holds the organisation's Production and Staging addresses.
 *
 * Where IT puts `profiles.json` on each OS (a machine-wide place an ordinary user cannot
 * write, read before the copy packaged in the app's resources):
 * - Linux: `/etc/adoption-desk/profiles.json`
 * - macOS: `/Library/Application Support/Adoption Desk/profiles.json`
 * - Windows: `%ProgramData%\Adoption Desk\profiles.json` (usually `C:\ProgramData\…`)
 */
import { posix, win32 } from 'node:path';

export const PROFILES_FILE = 'profiles.json';

export interface StartupSettings {
  /** Data folder override (tests, e2e), never when packaged. */
  userDataDir?: string;
  /** Keychain service name override (tests use their own), never when packaged. */
  keychainService?: string;
  /** Local demo address override (the demo's local service), never when packaged. */
  localDemoUrl?: string;
  /** electron-vite's dev server, never when packaged. */
  devServerUrl?: string;
  /** The folder holding the `profiles.json` the app reads. */
  profilesDir: string;
}

export interface StartupContext {
  env: NodeJS.ProcessEnv;
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** The app's folder when not packaged (the repository: `resources/` is there). */
  appPath: string;
  /** `process.resourcesPath` when packaged (where `extraResources` put profiles.json). */
  resourcesPath: string;
  fileExists(path: string): boolean;
}

/** The machine-wide folder where IT puts `profiles.json` on `platform`. */
export function organisationProfilesDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'win32') return win32.join(env.ProgramData || 'C:\\ProgramData', 'Adoption Desk');
  if (platform === 'darwin') return posix.join('/Library', 'Application Support', 'Adoption Desk');
  return '/etc/adoption-desk';
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value : undefined;
}

export function startupSettings(context: StartupContext): StartupSettings {
  const path = context.platform === 'win32' ? win32 : posix;
  if (!context.isPackaged) {
    const { env } = context;
    const overrides = {
      userDataDir: nonEmpty(env.ADOPTION_USER_DATA_DIR),
      keychainService: nonEmpty(env.ADOPTION_KEYCHAIN_SERVICE),
      localDemoUrl: nonEmpty(env.ADOPTION_LOCAL_DEMO_URL),
      devServerUrl: nonEmpty(env.ELECTRON_RENDERER_URL),
    };
    const defined = Object.entries(overrides).filter(([, value]) => value !== undefined);
    return { ...Object.fromEntries(defined), profilesDir: path.join(context.appPath, 'resources') };
  }
  const organisation = organisationProfilesDir(context.platform, context.env);
  const profilesDir = context.fileExists(path.join(organisation, PROFILES_FILE)) ? organisation : context.resourcesPath;
  return { profilesDir };
}
