// Answers a correct service never gives (issue 10): ids repeated in one list answer are noted in
// Diagnostics; another animal's record for GET /pets/{id} is refused as bad_response.
import { describe, expect, it } from 'vitest';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../../electron/core/service/service-client';
import type { DiagnosticEntry } from '../../../../src/shared/app-api/diagnostics';
import { FakeClock } from '../../../support/fake-clock';
import { createFakeFetch, type Script } from '../fake-fetch';

const animal = (id: string, name = 'Rex') => `{"id":${id},"name":"${name}","categoryId":2,"status":"available"}`;
const json = (body: string) => ({ status: 200, body, headers: { 'Content-Type': 'application/json' } });

function setup(script: Script) {
  const clock = new FakeClock();
  const fake = createFakeFetch(clock, script);
  const entries: DiagnosticEntry[] = [];
  const client = createServiceClient({
    fetch: fake.fetch,
    baseUrl: 'https://api.example.org/v1',
    getKey: async () => 'k3y',
    governor: new RateLimitGovernor({ profileId: 'p1', clock, random: () => 0.5 }),
    clock,
    profileId: 'p1',
    onRequest: (entry) => entries.push(entry),
  });
  return { client, entries, fake };
}

describe('service client: anomalies in answers', () => {
  it('passes a list answer with repeated ids on and notes the ids in the diagnostic entry', async () => {
    const big = '9223372036854775807';
    const { client, entries } = setup(() =>
      json(`[${animal('1')},${animal(big)},${animal('1', 'Rex again')},${animal('3')},${animal(big)}]`),
    );
    const result = await client.listPets({});
    expect(result.ok && result.data.animals.map((a) => a.id)).toEqual(['1', big, '1', '3', big]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: 200, outcome: 'ok' });
    expect(entries[0]?.note).toBe(
      `Duplicate ids in the answer: 1, ${big}. Each animal is shown once, from its last record.`,
    );
  });

  it('names at most ten repeated ids', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => String(i + 1));
    const { client, entries } = setup(() => json(`[${[...ids, ...ids].map((id) => animal(id)).join(',')}]`));
    await client.listPets({ limit: 100 });
    expect(entries[0]?.note).toContain('1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more.');
  });

  it('adds no note to a list answer whose ids are all different', async () => {
    const { client, entries } = setup(() => json(`[${animal('1')},${animal('2')}]`));
    await client.listPets({});
    expect(entries[0]).not.toHaveProperty('note');
  });

  it('refuses another animal record for GET /pets/{id} as bad_response, once, and notes it', async () => {
    const { client, entries, fake } = setup(() => json(animal('41', 'Impostor')));
    const result = await client.getPet('40');
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'bad_response',
        message: 'The service answered with another animal (ID 41) for animal 40. Nothing was saved from it.',
      },
    });
    expect(fake.requests).toHaveLength(1); // not retried: the same server would answer the same
    expect(entries[0]).toMatchObject({ path: '/pets/40', status: 200, outcome: 'bad_response' });
    expect(entries[0]?.note).toContain('another animal (ID 41)');
  });

  it('takes the record of the animal asked for', async () => {
    const { client, entries } = setup(() => json(animal('40')));
    const result = await client.getPet('40');
    expect(result.ok && result.data.animal.id).toBe('40');
    expect(entries[0]).toMatchObject({ outcome: 'ok' });
    expect(entries[0]).not.toHaveProperty('note');
  });
});
