/**
 * Issue 11.3, no duplicate reads: identical reads share one request; a list read for a screen
 * is dropped before it is sent when the screen asks for another query; writes still get their
 * share while Refresh is clicked again and again during a wait.
 */
import { describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../../electron/core/service/service-client';
import { FakeClock } from '../../../support/fake-clock';
import { createFakeFetch, rateHeaders, type Script } from '../fake-fetch';

function setup(script: Script) {
  const clock = new FakeClock();
  const fake = createFakeFetch(clock, script);
  const governor = new RateLimitGovernor({ profileId: 'p1', clock, random: () => 0.5 });
  const client = createServiceClient({
    fetch: fake.fetch,
    baseUrl: 'https://api.example.org/v1',
    getKey: async () => 'key',
    governor,
    clock,
    profileId: 'p1',
  });
  return { clock, fake, client, governor };
}

const list = (now: number, remaining = 50) => ({
  status: 200,
  body: '[]',
  headers: { 'Content-Type': 'application/json', ...rateHeaders(now, 60, remaining, 60_000) },
});
const created = (now: number) => ({
  status: 201,
  body: '{"id":7,"name":"Rex","categoryId":1}',
  headers: { 'Content-Type': 'application/json', ...rateHeaders(now, 60, 40, 60_000) },
});
const waitThirty = (now: number) => ({
  status: 429,
  body: '{"code":"rate_limited","message":"slow down","status":429}',
  headers: { 'Content-Type': 'application/json', 'Retry-After': '30', ...rateHeaders(now, 60, 0, 20_000) },
});

describe('service client: reads', () => {
  it('shares an identical read already queued or in flight instead of sending it again', async () => {
    const { clock, fake, client } = setup(() => ({ ...list(0), delayMs: 50 }));
    const calls = [client.listPets({ limit: 20 }), client.listPets({ limit: 20 }), client.listPets({ limit: 5 })];
    await clock.advanceAndSettle(10);
    calls.push(client.listPets({ limit: 20 }));
    await clock.advanceAndSettle(200);
    const results = await Promise.all(calls);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(fake.requests.map((request) => request.url)).toEqual([
      'https://api.example.org/v1/pets?limit=20',
      'https://api.example.org/v1/pets?limit=5',
    ]);
    // once answered, the same read goes out again when asked again
    const again = client.listPets({ limit: 20 });
    await clock.advanceAndSettle(100);
    expect(await again).toMatchObject({ ok: true });
    expect(fake.requests).toHaveLength(3);
  });

  it('drops a list read superseded by a newer query for the same screen before it is sent', async () => {
    const { clock, fake, client } = setup((_request, index) => (index === 0 ? waitThirty(clock.now()) : list(0)));
    const first = client.listPets({ limit: 20 }, { view: 'list' });
    await clock.flush();
    const available = client.listPets({ limit: 20, status: 'available' }, { view: 'list' });
    const sold = client.listPets({ limit: 20, status: 'sold' }, { view: 'list' });
    await clock.advanceAndSettle(31_000);
    // the first was sent (refused, then sent again): never dropped; 'available' was dropped unsent
    expect(await first).toMatchObject({ ok: true });
    expect(await available).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(await sold).toMatchObject({ ok: true });
    expect(fake.requests.map((request) => new URL(request.url).search)).toEqual([
      '?limit=20',
      '?limit=20',
      '?limit=20&status=sold',
    ]);
  });

  it('does not drop a read another caller still waits for', async () => {
    const { clock, fake, client } = setup((_request, index) => (index === 0 ? waitThirty(clock.now()) : list(0)));
    void client.listPets({ limit: 1 });
    await clock.flush();
    const forPrepare = client.listPets({ limit: 100 });
    const forList = client.listPets({ limit: 100 }, { view: 'list' });
    const newer = client.listPets({ limit: 50 }, { view: 'list' });
    await clock.advanceAndSettle(31_000);
    expect(await forPrepare).toMatchObject({ ok: true });
    expect(await forList).toMatchObject({ ok: true });
    expect(await newer).toMatchObject({ ok: true });
    expect(fake.requests.map((request) => new URL(request.url).search).slice(2)).toEqual(['?limit=100', '?limit=50']);
  });

  it('15 Refresh clicks during a 30 s wait send one list read, and the queued creations still go', async () => {
    const { clock, fake, client } = setup((request, index) =>
      index === 0 ? waitThirty(clock.now()) : request.method === 'POST' ? created(clock.now()) : list(clock.now()),
    );
    void client.listPets({ limit: 20 }, { view: 'list' });
    await clock.flush();
    const creations = Array.from({ length: 5 }, (_, i) =>
      client.createPet({ name: `A${i}`, categoryId: '1' }, `k${i}`),
    );
    const refreshes = [];
    for (let i = 0; i < 15; i += 1) {
      refreshes.push(client.listPets({ limit: 20 }, { view: 'list' }));
      await clock.advanceAndSettle(1000);
    }
    await clock.advanceAndSettle(20_000);
    expect((await Promise.all(refreshes)).every((result) => result.ok)).toBe(true);
    expect((await Promise.all(creations)).every((result) => result.ok)).toBe(true);
    const gets = fake.requests.filter((request) => request.method === 'GET');
    expect(gets).toHaveLength(2); // the refused one and its one retry
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(5);
  });
});
