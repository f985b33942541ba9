/**
 * API keys per profile, over a `SecretStore` (the OS keychain in the app). The results of
 * `setKey`, `clearKey` and `hasKey` are exactly the outputs of the API channels of the same
 * names (`src/shared/api.ts`). No result, error or message ever carries a key; `getKey` is
 * for the core's HTTP client only and must never cross the API boundary.
 * `testKey` needs the service client, so the composition implements it.
 */
import { ApiKey, type ChannelOutput } from '../../src/shared/api';
import { ProfileId } from '../../src/shared/profile';
import { err, ok, type Result } from '../../src/shared/result';
import { KeychainUnavailableError, type SecretStore } from './secret-store';

export interface KeyServiceOptions {
  /** When given, keys can only be saved for profiles it knows (others: `not_found`). */
  profileExists?: (profileId: string) => boolean;
}

const REDACTED = '[redacted]';

export class KeyService {
  readonly #store: SecretStore;
  readonly #profileExists: ((profileId: string) => boolean) | undefined;

  constructor(store: SecretStore, options: KeyServiceOptions = {}) {
    this.#store = store;
    this.#profileExists = options.profileExists;
  }

  async setKey(profileId: string, key: string): Promise<Result<ChannelOutput<'setKey'>>> {
    const badProfile = this.#checkProfile(profileId, true);
    if (badProfile) return badProfile;
    const parsed = ApiKey.safeParse(key);
    if (!parsed.success) {
      const reasons = parsed.error.issues.map((issue) => issue.message).join('; ');
      return err('invalid_request', `The API key was not saved: ${reasons}.`);
    }
    return this.#guard('saved', key, async () => {
      await this.#store.set(profileId, parsed.data);
      return { saved: true as const };
    });
  }

  async clearKey(profileId: string): Promise<Result<ChannelOutput<'clearKey'>>> {
    const badProfile = this.#checkProfile(profileId, false);
    if (badProfile) return badProfile;
    return this.#guard('removed', null, async () => {
      await this.#store.delete(profileId);
      return { cleared: true as const };
    });
  }

  async hasKey(profileId: string): Promise<Result<ChannelOutput<'hasKey'>>> {
    const badProfile = this.#checkProfile(profileId, false);
    if (badProfile) return badProfile;
    return this.#guard('checked', null, async () => ({ hasKey: await this.#store.has(profileId) }));
  }

  /**
   * The stored key, or null. FOR THE CORE'S HTTP CLIENT ONLY: never return it from a
   * router handler, event, log line or error. Rejects with `KeychainUnavailableError` when
   * the keychain cannot be used (map it to `keychain_unavailable` with its message).
   */
  async getKey(profileId: string): Promise<string | null> {
    return this.#store.get(profileId);
  }

  #checkProfile(profileId: string, mustExist: boolean): Result<never> | null {
    if (!ProfileId.safeParse(profileId).success) return err('invalid_request', 'The profile id is not valid.');
    if (mustExist && this.#profileExists && !this.#profileExists(profileId)) {
      return err('not_found', 'There is no profile with this id.');
    }
    return null;
  }

  async #guard<T>(verb: string, key: string | null, action: () => Promise<T>): Promise<Result<T>> {
    try {
      return ok(await action());
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return err('keychain_unavailable', error.message);
      const raw = error instanceof Error ? error.message : String(error);
      const safe = key ? raw.split(key).join(REDACTED) : raw;
      return err('internal', `The API key could not be ${verb}: the system keychain reported "${safe}".`);
    }
  }
}
