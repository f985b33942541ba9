// Against a real gnome-keyring in a private D-Bus session: run with `npm run test:keychain`.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeKeyRecord, storeBoundKey } from '../../electron/core/keys/bound-key';
import { KeyService } from '../../electron/core/keys/key-service';
import { createKeytarSecretStore, type KeytarLike } from '../../electron/core/keys/keytar-secret-store';
import { KeychainUnavailableError } from '../../electron/core/keys/secret-store';

const require = createRequire(import.meta.url);
const keytar = require('keytar') as KeytarLike;
const service = `Adoption Desk test ${randomUUID()}`;
const accounts = ['production', 'staging', 'shelter-north'];
const hasSession = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!hasSession) {
  console.warn('keychain tests skipped: no D-Bus session. Run them with `npm run test:keychain`.');
}

describe.skipIf(!hasSession)('keytar secret store against gnome-keyring', () => {
  const store = createKeytarSecretStore({ keytar, service });

  afterAll(async () => {
    for (const account of accounts) await keytar.deletePassword(service, account);
  });

  it('sets, gets, checks and deletes a secret', async () => {
    expect(await store.get('production')).toBeNull();
    expect(await store.has('production')).toBe(false);
    await store.set('production', 'first-key');
    expect(await store.get('production')).toBe('first-key');
    expect(await store.has('production')).toBe(true);
    await store.set('production', 'second-key');
    expect(await store.get('production')).toBe('second-key');
    expect(await store.delete('production')).toBe(true);
    expect(await store.get('production')).toBeNull();
    expect(await store.delete('production')).toBe(false);
  });

  it('keeps accounts apart and uses the service name it was given', async () => {
    await store.set('staging', 'staging-key');
    await store.set('shelter-north', 'north-key');
    expect(await store.get('staging')).toBe('staging-key');
    expect(await store.get('shelter-north')).toBe('north-key');
    expect(await keytar.getPassword(service, 'staging')).toBe('staging-key');
    const other = createKeytarSecretStore({ keytar, service: `${service} other` });
    expect(await other.has('staging')).toBe(false);
  });

  it('serves setKey / hasKey / clearKey through KeyService without returning the key', async () => {
    const keys = new KeyService(store, { addressOf: () => 'https://api.shelter.example/v1' });
    const results = [
      await keys.setKey('production', 'real-keychain-key'),
      await keys.hasKey('production'),
      await keys.clearKey('production'),
      await keys.hasKey('production'),
    ];
    expect(results).toEqual([
      { ok: true, data: { saved: true } },
      { ok: true, data: { hasKey: true } },
      { ok: true, data: { cleared: true } },
      { ok: true, data: { hasKey: false } },
    ]);
    expect(await keytar.getPassword(service, 'production')).toBeNull();
  });

  it('keeps the key bound to its origin in the keychain entry', async () => {
    const keys = new KeyService(store, { addressOf: () => 'https://api.shelter.example/v1' });
    await keys.setKey('production', 'bound-keychain-key');
    const entry = await keytar.getPassword(service, 'production');
    expect(entry && decodeKeyRecord(entry)).toEqual({
      key: 'bound-keychain-key',
      origin: 'https://api.shelter.example',
    });
    await storeBoundKey(store, 'staging', 'http://127.0.0.1:4010/v1', 'seeded-key');
    expect(await new KeyService(store, { addressOf: () => 'http://127.0.0.1:4010/v1' }).getKey('staging')).toEqual({
      key: 'seeded-key',
      origin: 'http://127.0.0.1:4010',
    });
  });
});

describe('keytar secret store with no usable D-Bus session', () => {
  const probe = fileURLToPath(new URL('./fixtures/probe-keytar-store.ts', import.meta.url));
  const runProbe = (env: NodeJS.ProcessEnv) => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', probe], { env, encoding: 'utf8', timeout: 30_000 });
    expect(child.status, child.stderr).toBe(0);
    return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
  };
  const baseEnv = (): NodeJS.ProcessEnv => {
    const env = { ...process.env };
    delete env.DISPLAY;
    delete env.DBUS_SESSION_BUS_ADDRESS;
    return env;
  };

  it('turns "Could not connect" (bus socket missing) into KeychainUnavailableError', () => {
    const result = runProbe({ ...baseEnv(), DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/adoption-desk-bus' });
    expect(result).toMatchObject({ outcome: 'unavailable', detail: expect.stringMatching(/Could not connect/) });
    expect(result.message).toMatch(/system keychain is not available/);
  });

  it('turns "Cannot autolaunch D-Bus without X11 $DISPLAY" (no bus at all) into KeychainUnavailableError', () => {
    const result = runProbe(baseEnv());
    expect(result).toMatchObject({ outcome: 'unavailable', detail: expect.stringMatching(/Cannot autolaunch D-Bus/) });
  });
});

describe('keytar error translation', () => {
  it.each([
    'Cannot autolaunch D-Bus without X11 $DISPLAY',
    'The name org.freedesktop.secrets was not provided by any .service files',
    'Cannot create an item in a locked collection',
    'Object does not exist at path "/org/freedesktop/secrets/collection/login"',
  ])('maps "%s" to KeychainUnavailableError on every call', async (message) => {
    const failing: KeytarLike = {
      getPassword: () => Promise.reject(new Error(message)),
      setPassword: () => Promise.reject(new Error(message)),
      deletePassword: () => Promise.reject(new Error(message)),
    };
    const store = createKeytarSecretStore({ keytar: failing });
    for (const call of [store.get('a'), store.set('a', 'secret'), store.delete('a'), store.has('a')]) {
      const error = await call.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(KeychainUnavailableError);
      expect((error as KeychainUnavailableError).detail).toBe(message);
    }
  });

  it('passes other errors through unchanged and uses service "Adoption Desk" by default', async () => {
    const calls: string[] = [];
    const odd = new Error('something else');
    const fake: KeytarLike = {
      getPassword: async (svc, account) => {
        calls.push(`${svc}/${account}`);
        throw odd;
      },
      setPassword: async () => undefined,
      deletePassword: async () => true,
    };
    await expect(createKeytarSecretStore({ keytar: fake }).get('production')).rejects.toBe(odd);
    expect(calls).toEqual(['Adoption Desk/production']);
  });
});
