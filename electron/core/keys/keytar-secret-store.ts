/**
 * The OS-keychain `SecretStore`, over keytar. keytar is injected (the composition does
 * `await import('keytar')`), so this module loads without the native binding and tests can
 * pass a fake. keytar's "the keychain cannot be used" errors become `KeychainUnavailableError`.
 */
import { errorMessage } from '../../../src/shared/basics/errors';
import { KeychainUnavailableError, type SecretStore } from './secret-store';

export const DEFAULT_KEYCHAIN_SERVICE = 'Adoption Desk';

/** The part of keytar this store uses. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/**
 * Messages keytar throws (plain `Error`s) when there is no usable Secret Service: see
 * STACK-NOTES "keytar and the OS keychain"; `Could not connect` is what libsecret says when
 * the session bus address points at a socket that does not exist.
 */
const UNAVAILABLE_PATTERNS: readonly RegExp[] = [
  /Cannot autolaunch D-Bus without X11 \$?DISPLAY/i,
  /org\.freedesktop\.secrets was not provided by any \.service files/i,
  /Cannot create an item in a locked collection/i,
  /Object does not exist at path "?\/org\/freedesktop\/secrets\//i,
  /Could not connect: /i,
  /org\.freedesktop\.DBus\.Error\.(ServiceUnknown|NoServer|NoReply|Disconnected|Spawn)/i,
];

/** Whether a keytar error means the keychain is unusable (rather than a bug or odd input). */
export function isKeychainUnavailableError(error: unknown): boolean {
  const message = errorMessage(error);
  return UNAVAILABLE_PATTERNS.some((pattern) => pattern.test(message));
}

function translate(error: unknown): unknown {
  if (error instanceof KeychainUnavailableError) return error;
  if (isKeychainUnavailableError(error)) {
    return new KeychainUnavailableError(errorMessage(error));
  }
  return error;
}

async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw translate(error);
  }
}

export interface KeytarSecretStoreOptions {
  /** keytar itself (or its default export), injected by the composition. */
  keytar: KeytarLike;
  /** The keychain service name; tests pass a unique one per run. */
  service?: string;
}

export function createKeytarSecretStore({
  keytar,
  service = DEFAULT_KEYCHAIN_SERVICE,
}: KeytarSecretStoreOptions): SecretStore {
  const get = (account: string) => guarded(() => keytar.getPassword(service, account));
  return {
    get,
    set: (account, secret) => guarded(() => keytar.setPassword(service, account, secret)),
    delete: (account) => guarded(() => keytar.deletePassword(service, account)),
    has: async (account) => (await get(account)) !== null,
  };
}
