// Against a real gnome-keyring in a private D-Bus session: run with `npm run test:keychain`.
// The Electron e2e project's keychain (test/e2e/support/electron-keychain.ts): every operation run
// by a given executable as Node through keychain-in-electron.mjs. Here that executable is this
// Node (Electron cannot run on our machines; ELECTRON_RUN_AS_NODE=1 makes Electron the same kind of
// Node): the helper, its protocol and the project's keytar, against the real keyring.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeKeyRecord, storeBoundKey } from '../../electron/core/keys/bound-key';
import type { KeytarLike } from '../../electron/core/keys/keytar-secret-store';
import { openKeychainThrough } from '../e2e/support/electron-keychain';

const keytar = createRequire(import.meta.url)('keytar') as KeytarLike;
const service = `Adoption Desk e2e helper ${randomUUID()}`;
const hasSession = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);

describe.skipIf(!hasSession)('the keychain through another executable (the Electron e2e project’s way)', () => {
  const store = openKeychainThrough(process.execPath, service);
  afterAll(async () => {
    await keytar.deletePassword(service, 'local');
    await keytar.deletePassword(service, 'odd');
  });

  it('sets, gets and deletes through the helper, which reads and writes the same keychain', async () => {
    expect(await store.get('local')).toBeNull();
    await storeBoundKey(store, 'local', 'http://127.0.0.1:4321/v1', 'e2e-key');
    // What the app reads (its own keytar) is a key bound to the service's origin.
    expect(decodeKeyRecord((await keytar.getPassword(service, 'local')) ?? '')).toEqual({
      key: 'e2e-key',
      origin: 'http://127.0.0.1:4321',
    });
    // And what the app saved is read back the same way.
    await keytar.setPassword(service, 'local', 'saved by the app');
    expect(await store.get('local')).toBe('saved by the app');
    expect(await store.has('local')).toBe(true);
    expect(await store.delete('local')).toBe(true);
    expect(await store.get('local')).toBeNull();
    expect(await store.delete('local')).toBe(false);
  });

  it('passes a secret through stdin whole: quotes, new lines, non-ASCII', async () => {
    const secret = '{"v":1,"key":"a b\n\t\\"c"} ñandú ✓';
    await store.set('odd', secret);
    expect(await keytar.getPassword(service, 'odd')).toBe(secret);
  });

  it('says so when the executable gives no answer', async () => {
    const broken = openKeychainThrough(process.platform === 'win32' ? 'cmd.exe' : '/bin/false', service);
    await expect(broken.get('local')).rejects.toThrow('the keychain helper ended');
  });
});
