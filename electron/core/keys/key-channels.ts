/**
 * The keys' channels (`setKey`, `clearKey`, `hasKey`, `keyStatus`, and the proxy logins'), and
 * what the rest of the core asks of the keys: the key of a profile's calls, each call's outcome
 * told to the key state and to the proxy-login bookkeeping (`watch`), and a profile's key kept
 * for its own origin only when it is saved and gone when it is removed.
 */
import type { EventPayload, Handlers } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { t } from '../../../src/shared/i18n';
import type { Profile } from '../../../src/shared/records/profile';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import type { ProxyRouter } from '../http';
import type { BoundKey } from './bound-key';
import { KeyService } from './key-service';
import { KeyStatusTracker } from './key-status';
import type { ProxyLogins } from './proxy-logins';
import type { Scrubber } from './scrub';
import { KeychainUnavailableError, type SecretStore } from './secret-store';

type KeyChannel = 'setKey' | 'clearKey' | 'hasKey' | 'keyStatus' | 'proxyLogins' | 'setProxyLogin' | 'clearProxyLogin';

export interface KeyChannelsOptions {
  secretStore: SecretStore;
  scrubber: Scrubber;
  clock: Clock;
  proxyLogins: ProxyLogins;
  /** The ways through the organisation's proxies: one whose login changed is made again. */
  proxies: Pick<ProxyRouter, 'forget'>;
  /** A profile's address (null when it has none or does not exist). */
  addressOf: (profileId: string) => string | null;
  profileExists: (profileId: string) => boolean;
  /** Tells the windows a profile's key state (the `key` event). */
  emit: (status: EventPayload<'key'>) => void;
  logError: (message: string) => void;
}

export interface KeyChannels {
  handlers: Handlers<KeyChannel>;
  /** The profile's key and the origin it is bound to (the service client's). */
  getKey(profileId: string): Promise<BoundKey | null>;
  /** Told before each call of the profile's service: what it returns is told the call's outcome. */
  watch(profileId: string): (result: Result<unknown>) => void;
  /** A profile was saved: a key is kept for its own origin only, and another address knows nothing of it. */
  profileSaved(profile: Profile, addressBefore: string | null): Promise<void>;
  /** A profile was removed: its key has no use any more. */
  profileRemoved(profileId: string): Promise<void>;
}

export function keyChannels(options: KeyChannelsOptions): KeyChannels {
  const { proxyLogins, proxies, profileExists, logError } = options;
  const keys = new KeyService(options.secretStore, {
    addressOf: options.addressOf,
    profileExists,
    scrubber: options.scrubber,
  });
  const keyStatus = new KeyStatusTracker({
    clock: options.clock,
    emit: options.emit,
    hasKey: async (id) => {
      const has = await keys.hasKey(id);
      return has.ok ? has.data.hasKey : null;
    },
  });
  /** Proxies that answered 407 this run and have no login that worked since. */
  const askedForLogin = new Set<string>();

  async function keychain<T>(use: () => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await use();
    } catch (error) {
      return error instanceof KeychainUnavailableError
        ? err('keychain_unavailable', error.message)
        : err('internal', t('core.keychainFailed'));
    }
  }

  return {
    handlers: {
      setKey: async ({ profileId, key }) => {
        const saved = await keys.setKey(profileId, key);
        if (saved.ok) keyStatus.saved(profileId);
        return saved;
      },
      clearKey: async ({ profileId }) => {
        const cleared = await keys.clearKey(profileId);
        if (cleared.ok) keyStatus.removed(profileId);
        return cleared;
      },
      hasKey: ({ profileId }) => keys.hasKey(profileId),
      keyStatus: async ({ profileId }) => {
        if (!profileExists(profileId)) return err('not_found', t('core.noSuchProfile'));
        return ok(await keyStatus.status(profileId));
      },
      proxyLogins: () =>
        keychain(async () => {
          const logins = await proxyLogins.list();
          const asked = [...askedForLogin].filter((proxy) => !logins.some((login) => login.proxy === proxy));
          return ok({ logins, asked });
        }),
      setProxyLogin: ({ proxy, username, password }) =>
        keychain(async () => {
          await proxyLogins.set(proxy, { username, password });
          proxies.forget(proxy);
          askedForLogin.delete(proxy);
          return ok({ saved: true as const });
        }),
      clearProxyLogin: ({ proxy }) =>
        keychain(async () => {
          const cleared = await proxyLogins.clear(proxy);
          proxies.forget(proxy);
          return ok({ cleared });
        }),
    },
    getKey: (profileId) => keys.getKey(profileId),
    watch(profileId) {
      const ticket = keyStatus.ticket(profileId);
      return (result) => {
        if (!result.ok && result.error.code === 'proxy_auth' && result.error.proxy)
          askedForLogin.add(result.error.proxy);
        keyStatus.observe(profileId, result, ticket);
      };
    },
    async profileSaved(profile, addressBefore) {
      const kept = await keys.keepOnlyFor(profile.id, profile.baseUrl);
      if (!kept.ok) logError(`saveProfile: the old key could not be removed (${kept.error.message})`);
      // Another address: what was known of the key no longer holds (it may be gone, too).
      if (profile.baseUrl !== addressBefore) {
        keyStatus.forget(profile.id);
        options.emit(await keyStatus.status(profile.id));
      }
    },
    async profileRemoved(profileId) {
      // Failing to delete the key is harmless.
      await keys.clearKey(profileId).catch(() => undefined);
      keyStatus.forget(profileId);
    },
  };
}
