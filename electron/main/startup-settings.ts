/**
 * What the main process starts with: the development overrides from the environment (only
 * when not packaged: a packaged app on a staff laptop never takes its data folder, keychain
 * entry, Local demo address or page from environment variables) and where the Production and
 * Staging addresses come from: in the installed app the organisation's managed settings
 * (electron/core/managed-settings: the OS policy store, then a machine-wide file only
 * administrators could have written, then the packaged `profiles.json`); from the repository,
 * `resources/profiles.json` alone.
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
  /** The `profiles.json` packed with the app (packaged) or the repository's `resources/profiles.json`. */
  profilesFile: string;
  /** True in the installed app: the organisation's managed settings come first. */
  managed: boolean;
}

export interface StartupContext {
  env: NodeJS.ProcessEnv;
  isPackaged: boolean;
  platform: NodeJS.Platform;
  /** The app's folder when not packaged (the repository: `resources/` is there). */
  appPath: string;
  /** `process.resourcesPath` when packaged (where `extraResources` put profiles.json). */
  resourcesPath: string;
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
    return {
      ...Object.fromEntries(defined),
      profilesFile: path.join(context.appPath, 'resources', PROFILES_FILE),
      managed: false,
    };
  }
  return { profilesFile: path.join(context.resourcesPath, PROFILES_FILE), managed: true };
}
