import { afterEach, describe, expect, it } from 'vitest';
import { AnimalCache } from '../../../src/storage/animal-cache';
import { prepareForEvent } from '../../../src/toolkit/prepare-for-event.svelte';
import { FakeApi, FakeClock, freshDb, newAnimal } from '../support/test-helpers';

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

function setup() {
  const clock = new FakeClock();
  const api = new FakeApi(clock);
  const fresh = freshDb();
  cleanups.push(fresh.close);
  const cache = new AnimalCache(fresh.db);
  for (let i = 0; i < 130; i += 1)
    api.store(newAnimal(`Animal ${i}`, '1', (['available', 'pending', 'sold'] as const)[i % 3]));
  return { api, cache, profileId: fresh.profileId };
}

describe('prepareForEvent', () => {
  it('fetches all and each status at limit 100 and counts the animals now offline', async () => {
    const { api, cache, profileId } = setup();
    const result = await prepareForEvent(api, profileId, cache);
    expect(api.listCalls).toEqual([
      { profileId, query: { limit: 100 } },
      { profileId, query: { limit: 100, status: 'available' } },
      { profileId, query: { limit: 100, status: 'pending' } },
      { profileId, query: { limit: 100, status: 'sold' } },
    ]);
    // Every animal is in its status list (≤ 100 each), so all 130 are cached.
    expect(result).toEqual({ ok: true, data: { availableOffline: 130, listsFetched: 4 } });
    expect((await cache.readList({ status: 'sold', limit: 100 }))?.animals).toHaveLength(43);
  });

  it('keeps what came and says how many are offline when a list fails', async () => {
    const { api, cache, profileId } = setup();
    api.failList('timeout', 'No answer within 15 s.');
    const result = await prepareForEvent(api, profileId, cache);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatchObject({ code: 'timeout' });
    if (!result.ok)
      expect(result.error.message).toMatch(/No answer within 15 s\. \(\d+ animals are available offline\.\)/);
    expect(api.listCalls).toHaveLength(4);
    expect(await cache.readList({ limit: 100 })).toBeNull();
    expect(await cache.readList({ status: 'pending', limit: 100 })).not.toBeNull();
  });

  it('stops at once when the key is refused', async () => {
    const { api, cache, profileId } = setup();
    api.failList('unauthorized', 'The API key was refused.', { status: 401 });
    const result = await prepareForEvent(api, profileId, cache);
    expect(api.listCalls).toHaveLength(1);
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(await cache.count()).toBe(0);
  });
});
