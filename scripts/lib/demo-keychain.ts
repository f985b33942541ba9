/**
 * The demo's keychain: the real OS keychain (never a plain file). On Linux without a usable
 * Secret Service (no desktop session, e.g. a fresh server or container), the demo re-runs
 * itself inside a private, unlocked gnome-keyring session (scripts/with-keyring.mjs) that
 * lasts as long as the demo; the key is stored there again on each run.
 */
import { KeychainUnavailableError, openOsKeychain, type SecretStore } from '../../electron/core';
import { t } from '../../src/shared/i18n';
import { onPath } from './open-browser';

export const INSIDE_PRIVATE_KEYRING = 'ADOPTION_DEMO_PRIVATE_KEYRING';

export type KeychainCheck =
  { usable: true; store: SecretStore } | { usable: false; detail: string; canStartPrivateKeyring: boolean };

export async function checkKeychain(service: string, env: NodeJS.ProcessEnv = process.env): Promise<KeychainCheck> {
  const store = await openOsKeychain(service);
  try {
    await store.has('local');
    return { usable: true, store };
  } catch (error) {
    const detail = error instanceof KeychainUnavailableError ? error.detail : String(error);
    const canStartPrivateKeyring =
      process.platform === 'linux' &&
      env[INSIDE_PRIVATE_KEYRING] !== '1' &&
      onPath('dbus-run-session') &&
      onPath('gnome-keyring-daemon');
    return { usable: false, detail, canStartPrivateKeyring };
  }
}

/** How to get a usable keychain, in the process's language (the system's, for the demo). */
export const keychainFix = (): string => t('demo.keychainFix');
