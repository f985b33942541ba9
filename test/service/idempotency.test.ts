import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Animals } from '../../src/shared/records/animal';
import { call, errorOf, serve, tempFolder } from './test-helpers';

const REX = { name: 'Rex', categoryId: 1 };
const withKey = (key: string) => ({ 'Idempotency-Key': `"${key}"` });

describe('Idempotency-Key on POST /pets', () => {
  it('replays the first response for a repeat with the same body, creating nothing', async () => {
    const service = await serve();
    const first = await call(`${service.url}/pets`, { body: REX, headers: withKey('a1') });
    const again = await call(`${service.url}/pets`, { body: REX, headers: withKey('a1') });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(service.animalCount()).toBe(1);
    const other = await call(`${service.url}/pets`, { body: REX, headers: withKey('a2') });
    expect(other.json).toMatchObject({ id: '2' });
  });

  it('answers 422 for the same key with another body', async () => {
    const { url } = await serve();
    await call(`${url}/pets`, { body: REX, headers: withKey('b1') });
    const reused = await call(`${url}/pets`, { body: { ...REX, name: 'Max' }, headers: withKey('b1') });
    expect(reused.status).toBe(422);
    expect(errorOf(reused)).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
  });

  it('answers 409 while the first request with the key is in flight', async () => {
    const service = await serve({ latencyMs: '300..300' });
    const prepared = once(service.events, 'prepared');
    const first = call(`${service.url}/pets`, { body: REX, headers: withKey('c1') });
    await prepared;
    const second = await call(`${service.url}/pets`, { body: REX, headers: withKey('c1') });
    expect(second.status).toBe(409);
    expect(errorOf(second)).toMatchObject({ code: 'idempotency_in_flight', status: 409 });
    expect((await first).status).toBe(201);
    expect(service.animalCount()).toBe(1);
  });

  it('keys records per API key and refuses a malformed key', async () => {
    const { url } = await serve({ keys: { a: 'pro', b: 'pro' } });
    expect((await call(`${url}/pets`, { key: 'a', body: REX, headers: withKey('d1') })).json).toMatchObject({
      id: '1',
    });
    expect((await call(`${url}/pets`, { key: 'b', body: REX, headers: withKey('d1') })).json).toMatchObject({
      id: '2',
    });
    const malformed = await call(`${url}/pets`, { key: 'a', body: REX, headers: { 'Idempotency-Key': '""' } });
    expect(malformed.status).toBe(400);
    expect(errorOf(malformed).message).toMatch(/Idempotency-Key/);
  });

  it('ignores the header with --no-idempotency', async () => {
    const service = await serve({ idempotency: false });
    const first = await call(`${service.url}/pets`, { body: REX, headers: withKey('e1') });
    const again = await call(`${service.url}/pets`, { body: REX, headers: withKey('e1') });
    expect([first.json, again.json]).toMatchObject([{ id: '1' }, { id: '2' }]);
    expect(service.animalCount()).toBe(2);
  });

  it('persists records with the data, so a creation reset after storing is replayed after a restart', async () => {
    const dataFile = join(await tempFolder(), 'data.json');
    const broken = await serve({ dataFile, faults: 'reset-after:1' });
    await expect(call(`${broken.url}/pets`, { body: REX, headers: withKey('f1') })).rejects.toThrow();
    await broken.stop();
    const restarted = await serve({ dataFile });
    const replay = await call(`${restarted.url}/pets`, { body: REX, headers: withKey('f1') });
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual({ id: '1', name: 'Rex', categoryId: '1', status: 'available' });
    expect(Animals.parse((await call(`${restarted.url}/pets`)).json)).toHaveLength(1);
  });
});
