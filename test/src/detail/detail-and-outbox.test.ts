import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemorySafetyCopy } from '../support/test-helpers';
import { AnimalDetailStore } from '../../../src/detail/animal-detail.svelte';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { deleteProfileDb, openProfileDb } from '../../../src/storage/db';
import { Outbox } from '../../../src/storage/outbox';
import { QueueStore } from '../../../src/queue/queue.svelte';
import type { SyncDriver } from '../../../src/sync/sync-driver';
import type { SyncProgress } from '../../../src/sync/sync-engine';
import { idleProgress } from '../../../src/sync/sync-progress';
import { err, fakeAdoptionApi, ok } from '../support/fake-adoption-api';

const profileIds: string[] = [];
const fresh = (name: string) => {
  const id = `${name}-${profileIds.length + 1}`;
  profileIds.push(id);
  return id;
};

function fakeSync(): SyncDriver & { emit(p: SyncProgress): void } {
  const listeners = new Set<(p: SyncProgress) => void>();
  return {
    sendPending: vi.fn(),
    resumeAfterKey: vi.fn(),
    progress: idleProgress,
    onProgress(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(progress) {
      for (const listener of listeners) listener(progress);
    },
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(check()).toBe(true);
};

afterEach(async () => {
  for (const id of profileIds.splice(0)) await deleteProfileDb(id);
});

describe('AnimalDetailStore', () => {
  it('when the single-animal call is gone, uses the listed data and says nothing is lost', async () => {
    const api = fakeAdoptionApi();
    const animal = { id: '9007199254740993', name: 'Rex', categoryId: '1', status: 'sold' as const };
    api.handle('getPet', () => err('gone', 'removed', { status: 410 }));
    api.handle('listPets', () => ok({ animals: [animal], fetchedAt: 42 }));
    const id = fresh('detail');
    const db = openProfileDb(id);
    const detail = new AnimalDetailStore(api, id, animal.id, db, new AnimalCache(db));
    detail.start();
    await until(() => detail.cached !== null);
    expect(detail.refresh).toBe('gone');
    expect(detail.cached).toMatchObject({ animal, confirmedAt: 42 });
    expect(api.calls.at(-1)).toEqual({ channel: 'listPets', input: { profileId: id, query: { limit: 100 } } });
    detail.stop();
  });
});

describe('QueueStore', () => {
  it('shows an entry only once it is stored, asks sync to send, and follows its progress', async () => {
    const id = fresh('outbox');
    const db = openProfileDb(id);
    const sync = fakeSync();
    const store = new QueueStore(id, db, new Outbox(db, undefined, new MemorySafetyCopy()), sync);
    store.start();
    expect(await store.enqueue({ name: 'Pip', categoryId: '3' })).toMatchObject({
      ok: true,
      localId: expect.any(String),
    });
    expect(sync.sendPending).toHaveBeenCalledWith(id);
    await until(() => store.waiting.length === 1);
    expect(store.waiting[0]).toMatchObject({ animal: { name: 'Pip', categoryId: '3' }, state: 'queued' });
    sync.emit({ ...sync.progress(id), total: 12, sent: 2, active: true });
    sync.emit({ ...sync.progress('another-profile'), total: 99 });
    expect(store.progress).toMatchObject({ total: 12, sent: 2, active: true });
    store.stop();
  });
});
