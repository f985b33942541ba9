import { describe, expect, it } from 'vitest';
import { ANIMAL_STATUSES } from '../../src/shared/records/animal';
import { Animals } from '../../src/shared/records/animal';
import { call, serve } from './test-helpers';

describe('GET /pets', () => {
  it('returns a bare array, newest first, 20 by default, up to limit', async () => {
    const { url } = await serve({ seedAnimals: 40 });
    const page = await call(`${url}/pets`);
    const animals = Animals.parse(page.json);
    expect(animals.map((animal) => animal.id)).toEqual(Array.from({ length: 20 }, (_, i) => String(40 - i)));
    expect(Animals.parse((await call(`${url}/pets?limit=1`)).json).map((a) => a.id)).toEqual(['40']);
    expect(Animals.parse((await call(`${url}/pets?limit=100`)).json)).toHaveLength(40);
  });

  it('filters by status and shows a new animal first', async () => {
    const { url } = await serve({ seedAnimals: 40 });
    const all = Animals.parse((await call(`${url}/pets?limit=100`)).json);
    for (const status of ANIMAL_STATUSES) {
      const filtered = Animals.parse((await call(`${url}/pets?limit=100&status=${status}`)).json);
      expect(filtered.length, status).toBeGreaterThan(0);
      expect(filtered).toEqual(all.filter((animal) => animal.status === status));
    }
    await call(`${url}/pets`, { body: { name: 'Newest', categoryId: 2, status: 'pending' } });
    const first = Animals.parse((await call(`${url}/pets?limit=1&status=pending`)).json)[0];
    expect(first).toEqual({ id: '41', name: 'Newest', categoryId: '2', status: 'pending' });
  });

  it('seeds realistic, varied animals deterministically by --seed', async () => {
    const a = Animals.parse((await call(`${(await serve({ seedAnimals: 40, seed: 7 })).url}/pets?limit=100`)).json);
    const b = Animals.parse((await call(`${(await serve({ seedAnimals: 40, seed: 7 })).url}/pets?limit=100`)).json);
    expect(a).toEqual(b);
    expect(new Set(a.map((animal) => animal.name)).size).toBeGreaterThan(15);
    expect(new Set(a.map((animal) => animal.categoryId)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(a.map((animal) => animal.status))).toEqual(new Set(ANIMAL_STATUSES));
  });
});
