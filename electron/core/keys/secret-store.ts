/**
 * Where API keys live: the OS keychain in the app (see `keytar-secret-store.ts`), memory in
 * unit tests (`memory-secret-store.ts`). The account is the profile id. There is no plain-text
 * fallback anywhere: when the keychain cannot be used, every call rejects with
 * `KeychainUnavailableError`.
 */
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

/** What staff read when the system keychain cannot be used, including how to fix it on Linux. */
export const KEYCHAIN_UNAVAILABLE_MESSAGE =
  'The system keychain is not available, so the API key cannot be stored or read. ' +
  'Adoption Desk keeps API keys only in the system keychain, never in a plain file. ' +
  'On Linux, install and unlock a Secret Service such as GNOME Keyring ' +
  '(for example: sudo apt-get install gnome-keyring libsecret-1-0), then log in to a desktop session ' +
  'so the keyring is unlocked, and start Adoption Desk again.';

/** The OS keychain cannot be used (no D-Bus session, no Secret Service, locked or missing collection). */
export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
  /** The keychain's own technical message, for diagnostics (never contains a secret). */
  readonly detail: string;

  constructor(detail: string) {
    super(KEYCHAIN_UNAVAILABLE_MESSAGE);
    this.detail = detail;
  }
}
