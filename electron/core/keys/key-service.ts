/**
 * API keys per profile, over a `SecretStore` (the OS keychain in the app), each bound to the
 * origin of the profile's address when it was saved (`bound-key.ts`). The results of
 * `setKey`, `clearKey` and `hasKey` are exactly the outputs of the API channels of the same
 * names (`src/shared/app-api/api.ts`). No result, error or message ever carries a key; `getKey` is
 * for the core's HTTP client only and must never cross the API boundary.
 * `testKey` needs the service client, so the composition implements it.
 */
import { ApiKey, type ChannelOutput } from '../../../src/shared/app-api/api';
import { describeIssues, errorMessage } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import { ProfileId } from '../../../src/shared/records/profile';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import { type BoundKey, decodeKeyRecord, encodeKeyRecord, originOf } from './bound-key';
import { Scrubber } from './scrub';
import { KeychainUnavailableError, type SecretStore } from './secret-store';

export interface KeyServiceOptions {
  /** The profile's current service address (null: none set yet; the key is bound to its origin). */
  addressOf: (profileId: string) => string | null;
  /** When given, keys can only be saved for profiles it knows (others: `not_found`). */
  profileExists?: (profileId: string) => boolean;
  /** Told every key read or given, so nothing the core answers can carry it (the core's one scrubber). */
  scrubber?: Scrubber;
}

/** What staff read when a key is given to a profile without an address (the core's language). */
export const noAddressForKey = (): string => t('coreKeys.noAddressForKey');

export class KeyService {
  readonly #store: SecretStore;
  readonly #options: KeyServiceOptions;
  readonly #scrubber: Scrubber;

  constructor(store: SecretStore, options: KeyServiceOptions) {
    this.#store = store;
    this.#options = options;
    this.#scrubber = options.scrubber ?? new Scrubber();
  }

  async setKey(profileId: string, key: string): Promise<Result<ChannelOutput<'setKey'>>> {
    const badProfile = this.#checkProfile(profileId, true);
    if (badProfile) return badProfile;
    const parsed = ApiKey.safeParse(key);
    if (!parsed.success) {
      const reasons = describeIssues(parsed.error.issues, { paths: false });
      return err('invalid_request', t('coreKeys.keyNotSaved', { reasons }));
    }
    const address = this.#options.addressOf(profileId);
    if (address === null) return err('not_configured', noAddressForKey());
    this.#scrubber.remember(parsed.data);
    return this.#guard('saved', async () => {
      await this.#store.set(profileId, encodeKeyRecord({ key: parsed.data, origin: originOf(address) }));
      return { saved: true as const };
    });
  }

  async clearKey(profileId: string): Promise<Result<ChannelOutput<'clearKey'>>> {
    const badProfile = this.#checkProfile(profileId, false);
    if (badProfile) return badProfile;
    return this.#guard('removed', async () => {
      await this.#store.delete(profileId);
      return { cleared: true as const };
    });
  }

  /** Whether a key is saved for the profile's current address (one bound elsewhere does not count). */
  async hasKey(profileId: string): Promise<Result<ChannelOutput<'hasKey'>>> {
    const badProfile = this.#checkProfile(profileId, false);
    if (badProfile) return badProfile;
    return this.#guard('checked', async () => {
      const bound = await this.getKey(profileId);
      const address = this.#options.addressOf(profileId);
      return { hasKey: bound !== null && address !== null && bound.origin === originOf(address) };
    });
  }

  /**
   * Deletes the profile's key unless it is bound to `address`'s origin (after an address
   * change). Returns an error value when the keychain could not delete it; the binding keeps
   * the key from being sent anywhere else even then.
   */
  async keepOnlyFor(profileId: string, address: string | null): Promise<Result<true>> {
    return this.#guard('removed', async () => {
      const bound = await this.getKey(profileId);
      if (bound && (address === null || bound.origin !== originOf(address))) await this.#store.delete(profileId);
      return true as const;
    });
  }

  /**
   * The stored key and the origin it is bound to, or null. FOR THE CORE'S HTTP CLIENT ONLY:
   * never return it from a router handler, event, log line or error. Rejects with
   * `KeychainUnavailableError` when the keychain cannot be used.
   */
  async getKey(profileId: string): Promise<BoundKey | null> {
    const secret = await this.#store.get(profileId);
    if (secret === null) return null;
    const bound = decodeKeyRecord(secret);
    this.#scrubber.remember(bound?.key ?? secret);
    return bound;
  }

  #checkProfile(profileId: string, mustExist: boolean): Result<never> | null {
    if (!ProfileId.safeParse(profileId).success) return err('invalid_request', t('coreKeys.profileIdInvalid'));
    if (mustExist && this.#options.profileExists && !this.#options.profileExists(profileId)) {
      return err('not_found', t('core.noSuchProfile'));
    }
    return null;
  }

  async #guard<T>(verb: 'saved' | 'removed' | 'checked', action: () => Promise<T>): Promise<Result<T>> {
    try {
      return ok(await action());
    } catch (error) {
      const scrub = (text: string): string => this.#scrubber.text(text);
      if (error instanceof KeychainUnavailableError) return err('keychain_unavailable', scrub(error.message));
      const raw = errorMessage(error);
      return err('internal', t('coreKeys.keychainReported', { action: verb, detail: scrub(raw) }));
    }
  }
}
