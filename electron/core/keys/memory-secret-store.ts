/**
 * An in-memory `SecretStore`. FOR UNIT TESTS ONLY: the app never uses it, because keys must
 * live in the OS keychain and nowhere else (there is no fallback to this store).
 */
import type { SecretStore } from './secret-store';

export class MemorySecretStore implements SecretStore {
  readonly #secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.#secrets.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    this.#secrets.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return this.#secrets.delete(account);
  }

  async has(account: string): Promise<boolean> {
    return this.#secrets.has(account);
  }
}
