/**
 * The OS keychain as a SecretStore, loading keytar (a native CommonJS module) on demand.
 * When keytar itself cannot be loaded, every call rejects with `KeychainUnavailableError`,
 * so the app still starts and says plainly why keys cannot be saved; never a plain-text file.
 */
import { errorMessage } from '../../../src/shared/basics/errors';
import { createKeytarSecretStore, DEFAULT_KEYCHAIN_SERVICE, type KeytarLike } from './keytar-secret-store';
import { KeychainUnavailableError, type SecretStore } from './secret-store';

function unavailableStore(detail: string): SecretStore {
  const fail = (): Promise<never> => Promise.reject(new KeychainUnavailableError(detail));
  return { get: fail, set: fail, delete: fail, has: fail };
}

export async function openOsKeychain(service: string = DEFAULT_KEYCHAIN_SERVICE): Promise<SecretStore> {
  try {
    const loaded = (await import('keytar')) as KeytarLike & { default?: KeytarLike };
    return createKeytarSecretStore({ keytar: loaded.default ?? loaded, service });
  } catch (error) {
    return unavailableStore(`keytar could not be loaded: ${errorMessage(error)}`);
  }
}
