import { describe, expect, it, vi } from 'vitest';
import { ConnectivityStore } from '../../../src/shell/connectivity.svelte';
import { KeysStore } from '../../../src/shell/keys.svelte';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

describe('ConnectivityStore (a reader of the core)', () => {
  it('is "not checked yet" until the core reports, then follows every report in order', () => {
    const api = fakeAdoptionApi();
    const store = new ConnectivityStore(api);
    store.start();
    expect(store.state('local')).toBe('unknown');
    api.emit('connectivity', { profileId: 'local', online: false, at: 10 });
    expect(store.state('local')).toBe('offline');
    api.emit('connectivity', { profileId: 'local', online: true, at: 20 });
    expect(store.state('local')).toBe('online');
    expect(store.state('other')).toBe('unknown');
    store.destroy();
  });

  it('takes the latest report as it comes, even when the computer’s clock was set back meanwhile', () => {
    // The core stamps reports with the wall clock, which staff (or the network time) may set
    // back; its reports still arrive in the order it made them (one IPC or SSE stream).
    const api = fakeAdoptionApi();
    const store = new ConnectivityStore(api);
    store.start();
    const back = vi.fn();
    store.onBack(back);
    api.emit('connectivity', { profileId: 'local', online: true, at: 10_000 });
    api.emit('connectivity', { profileId: 'local', online: false, at: 4_000 }); // the clock went back 6 s
    expect(store.state('local')).toBe('offline');
    api.emit('connectivity', { profileId: 'local', online: true, at: 5_000 });
    expect(store.state('local')).toBe('online');
    expect(back.mock.calls).toEqual([['local'], ['local']]);
    store.destroy();
  });

  it('tells listeners when a service answers after being unreachable or unchecked, not on every answer', () => {
    const api = fakeAdoptionApi();
    const store = new ConnectivityStore(api);
    store.start();
    const back = vi.fn();
    store.onBack(back);
    api.emit('connectivity', { profileId: 'local', online: true, at: 1 });
    api.emit('connectivity', { profileId: 'local', online: true, at: 2 });
    api.emit('connectivity', { profileId: 'local', online: false, at: 3 });
    api.emit('connectivity', { profileId: 'local', online: false, at: 4 });
    api.emit('connectivity', { profileId: 'local', online: true, at: 5 });
    expect(back.mock.calls).toEqual([['local'], ['local']]);
    store.destroy();
  });
});

describe('KeysStore (a reader of the core’s key state)', () => {
  it('asks the core, then follows its key events; a key is needed when none is saved or it was refused', async () => {
    const api = fakeAdoptionApi();
    api.handle('keyStatus', ({ profileId }) => ok({ profileId, state: 'none' as const, at: 1 }));
    const keys = new KeysStore(api);
    keys.start();
    expect(keys.state('local')).toBeNull();
    expect(keys.needsKey('local')).toBe(false); // unknown is not "none"
    await keys.refresh('local');
    expect(keys.needsKey('local')).toBe(true);
    api.emit('key', { profileId: 'local', state: 'accepted', at: 2 });
    expect(keys.saved('local')).toBe(true);
    expect(keys.needsKey('local')).toBe(false);
    api.emit('key', { profileId: 'local', state: 'refused', at: 3 });
    expect(keys.needsKey('local')).toBe(true);
    keys.destroy();
  });

  it('does not let an answer older than an event overwrite it', async () => {
    const api = fakeAdoptionApi();
    let answer: (value: unknown) => void = () => {};
    api.handle('keyStatus', () => new Promise((resolve) => (answer = resolve as (value: unknown) => void)));
    const keys = new KeysStore(api);
    keys.start();
    const refreshing = keys.refresh('local');
    await vi.waitFor(() => expect(api.calls).toHaveLength(1));
    api.emit('key', { profileId: 'local', state: 'refused', at: 9 });
    answer(ok({ profileId: 'local', state: 'saved', at: 5 }));
    await refreshing;
    expect(keys.state('local')).toBe('refused');
    keys.destroy();
  });

  it('a key saved here is "saved" at once and tells the app (sending resumes); the core’s later word wins', async () => {
    const api = fakeAdoptionApi();
    api.handle('setKey', () => ok({ saved: true as const }));
    const saved = vi.fn();
    const keys = new KeysStore(api, saved);
    keys.start();
    const changes: string[] = [];
    keys.onChange((_profileId, state) => changes.push(state));
    api.emit('key', { profileId: 'local', state: 'refused', at: 1 });
    expect(await keys.save('local', 'right-key')).toBe(true);
    expect(keys.state('local')).toBe('saved');
    expect(saved).toHaveBeenCalledWith('local');
    api.emit('key', { profileId: 'local', state: 'accepted', at: 2 });
    expect(changes).toEqual(['refused', 'saved', 'accepted']);
    keys.destroy();
  });

  it('a refused save changes nothing and says why', async () => {
    const api = fakeAdoptionApi();
    api.handle('setKey', () => err('keychain_unavailable', 'The keychain is locked.'));
    const saved = vi.fn();
    const keys = new KeysStore(api, saved);
    expect(await keys.save('local', 'a-key')).toBe(false);
    expect(keys.error).toBe('Key not saved: The keychain is locked.');
    expect(keys.state('local')).toBeNull();
    expect(saved).not.toHaveBeenCalled();
  });
});
