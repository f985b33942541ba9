import { describe, expect, it } from 'vitest';
import { decodeKeyRecord } from '../../../../electron/core/keys/bound-key';
import { KeyService, type KeyServiceOptions } from '../../../../electron/core/keys/key-service';
import { MemorySecretStore } from '../../../../electron/core/keys/memory-secret-store';
import {
  keychainUnavailableMessage,
  KeychainUnavailableError,
  type SecretStore,
} from '../../../../electron/core/keys/secret-store';

const KEY = 'sk_live_4f9a1c0e7b2d';
const ADDRESSES: Record<string, string | null> = {
  production: 'https://api.shelter.example/v1',
  staging: 'https://staging.shelter.example/v1',
  unset: null,
};
const options = (more: Partial<KeyServiceOptions> = {}): KeyServiceOptions => ({
  addressOf: (id) => ADDRESSES[id] ?? null,
  ...more,
});

/** A store whose every call fails as keytar does with no Secret Service. */
class UnavailableSecretStore implements SecretStore {
  #fail(): never {
    throw new KeychainUnavailableError('The name org.freedesktop.secrets was not provided by any .service files');
  }
  async get(): Promise<string | null> {
    this.#fail();
  }
  async set(): Promise<void> {
    this.#fail();
  }
  async delete(): Promise<boolean> {
    this.#fail();
  }
  async has(): Promise<boolean> {
    this.#fail();
  }
}

describe('KeyService', () => {
  it('saves, reports and clears a key without ever returning it', async () => {
    const store = new MemorySecretStore();
    const keys = new KeyService(store, options());
    expect(await keys.hasKey('production')).toEqual({ ok: true, data: { hasKey: false } });
    expect(await keys.setKey('production', KEY)).toEqual({ ok: true, data: { saved: true } });
    expect(await keys.hasKey('production')).toEqual({ ok: true, data: { hasKey: true } });
    expect(decodeKeyRecord((await store.get('production')) ?? '')).toEqual({
      key: KEY,
      origin: 'https://api.shelter.example',
    });
    expect(await keys.getKey('production')).toEqual({ key: KEY, origin: 'https://api.shelter.example' });
    expect(await keys.hasKey('staging')).toEqual({ ok: true, data: { hasKey: false } });
    expect(await keys.clearKey('production')).toEqual({ ok: true, data: { cleared: true } });
    expect(await keys.hasKey('production')).toEqual({ ok: true, data: { hasKey: false } });
    expect(await keys.getKey('production')).toBeNull();
    // Clearing a key that is not there is not an error.
    expect(await keys.clearKey('production')).toEqual({ ok: true, data: { cleared: true } });
  });

  it.each([
    ['empty', '', /empty/],
    ['a space', 'abc def', /spaces or control characters/],
    ['a tab', 'abc\tdef', /spaces or control characters/],
    ['a trailing newline', 'abcdef\n', /spaces or control characters/],
    ['a control character', 'abc\u0007def', /spaces or control characters/],
    ['a DEL character', 'abc\u007fdef', /spaces or control characters/],
    ['more than 4 KiB', 'k'.repeat(4097), /longer than 4 KiB/],
    ['more than 4 KiB of multi-byte text', 'é'.repeat(2049), /longer than 4 KiB/],
  ])('refuses a key with %s and stores nothing', async (_label, key, reason) => {
    const store = new MemorySecretStore();
    const result = await new KeyService(store, options()).setKey('production', key);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_request');
    expect(result.error.message).toMatch(reason);
    if (key.length > 0) expect(result.error.message).not.toContain(key);
    expect(await store.has('production')).toBe(false);
  });

  it('accepts a key of exactly 4 KiB', async () => {
    const store = new MemorySecretStore();
    expect(await new KeyService(store, options()).setKey('production', 'k'.repeat(4096))).toEqual({
      ok: true,
      data: { saved: true },
    });
  });

  it('refuses an invalid profile id and, when told which exist, an unknown profile', async () => {
    const keys = new KeyService(new MemorySecretStore(), options({ profileExists: (id) => id === 'production' }));
    const bad = await keys.setKey('../etc', KEY);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const unknown = await keys.setKey('nowhere', KEY);
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await keys.setKey('production', KEY)).toEqual({ ok: true, data: { saved: true } });
  });

  it('answers keychain_unavailable with the plain message and no key when the keychain is unusable', async () => {
    const keys = new KeyService(new UnavailableSecretStore(), options());
    const results = [
      await keys.setKey('production', KEY),
      await keys.hasKey('production'),
      await keys.clearKey('production'),
    ];
    for (const result of results) {
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe('keychain_unavailable');
      expect(result.error.message).toBe(keychainUnavailableMessage());
      expect(result.error.message).toMatch(/system keychain is not available/);
      expect(result.error.message).toMatch(/sudo apt-get install gnome-keyring libsecret-1-0/);
      expect(JSON.stringify(result)).not.toContain(KEY);
    }
    await expect(keys.getKey('production')).rejects.toBeInstanceOf(KeychainUnavailableError);
  });

  it('redacts the key from an unexpected keychain error', async () => {
    const store = new MemorySecretStore();
    store.set = async (_account, secret) => {
      throw new Error(`weird failure storing ${secret}`);
    };
    const result = await new KeyService(store, options()).setKey('production', KEY);
    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(result)).not.toContain(KEY);
    if (!result.ok) expect(result.error.message).toContain('[hidden key]');
  });

  it('binds a key to the origin of the address it was saved for', async () => {
    const addresses: Record<string, string | null> = { production: 'https://api.shelter.example/v1' };
    const store = new MemorySecretStore();
    const keys = new KeyService(store, { addressOf: (id) => addresses[id] ?? null });
    await keys.setKey('production', KEY);
    addresses.production = 'https://api.shelter.example/v2';
    expect(await keys.hasKey('production')).toEqual({ ok: true, data: { hasKey: true } });
    addresses.production = 'https://elsewhere.example/v1';
    expect(await keys.hasKey('production')).toEqual({ ok: true, data: { hasKey: false } });
    expect(await keys.getKey('production')).toEqual({ key: KEY, origin: 'https://api.shelter.example' });
    expect(await keys.keepOnlyFor('production', 'https://api.shelter.example/v1')).toEqual({ ok: true, data: true });
    expect(await store.has('production')).toBe(true);
    expect(await keys.keepOnlyFor('production', 'https://elsewhere.example/v1')).toEqual({ ok: true, data: true });
    expect(await store.has('production')).toBe(false);
  });

  it('saves no key for a profile without an address, and treats a bare stored key as none', async () => {
    const store = new MemorySecretStore();
    const keys = new KeyService(store, options());
    expect(await keys.setKey('unset', KEY)).toMatchObject({ ok: false, error: { code: 'not_configured' } });
    expect(await store.has('unset')).toBe(false);
    await store.set('production', KEY);
    expect(await keys.hasKey('production')).toEqual({ ok: true, data: { hasKey: false } });
    expect(await keys.getKey('production')).toBeNull();
  });

  it('hides the key from a keychain-unavailable message too', async () => {
    const store = new MemorySecretStore();
    store.set = async (_account, secret) => {
      const error = new KeychainUnavailableError('locked');
      error.message = `locked while storing ${secret.slice(0, 30)}`;
      throw error;
    };
    const result = await new KeyService(store, options()).setKey('production', `${KEY}-and-more`);
    expect(result).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    expect(JSON.stringify(result)).not.toContain(KEY.slice(0, 12));
  });
});
