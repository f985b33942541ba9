/**
 * Where API keys live: the OS keychain in the app (see `keytar-secret-store.ts`), memory in
 * unit tests (`memory-secret-store.ts`). The account is the profile id. There is no plain-text
 * fallback anywhere: when the keychain cannot be used, every call rejects with
 * `KeychainUnavailableError`.
 */
import { t } from '../../../src/shared/i18n';
export interface SecretStore {
  /** The secret stored for `account`, or null when there is none. */
  get(account: string): Promise<string | null>;
  /** Stores (or replaces) the secret for `account`. */
  set(account: string, secret: string): Promise<void>;
  /** Deletes the secret for `account`; true when there was one. */
  delete(account: string): Promise<boolean>;
  /** Whether a secret is stored for `account` (without handing it out). */
  has(account: string): Promise<boolean>;
}

/** What staff read when the system keychain cannot be used, including how to fix it on Linux (the core's language). */
export const keychainUnavailableMessage = (): string => t('coreKeys.keychainUnavailable');

/** The OS keychain cannot be used (no D-Bus session, no Secret Service, locked or missing collection). */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
  /** The keychain's own technical message, for diagnostics (never contains a secret). */
  readonly detail: string;

  constructor(detail: string) {
    super(keychainUnavailableMessage());
    this.detail = detail;
  }
}
