import { describe, expect, it } from 'vitest';
import { call, errorOf, serve } from './test-helpers';

const bad = async (url: string, body: unknown, field: RegExp, headers?: Record<string, string>) => {
  const answer = await call(`${url}/pets`, { body, headers });
  expect(answer.status, JSON.stringify(body)).toBe(400);
  expect(errorOf(answer)).toEqual({ code: expect.any(String), status: 400, message: expect.stringMatching(field) });
  expect(answer.headers.get('x-ratelimit-remaining')).not.toBeNull();
};

describe('POST /pets validation', () => {
  it('refuses bodies that are not JSON objects', async () => {
    const { url } = await serve();
    await bad(url, '{"name": "Rex",', /JSON/);
    await bad(url, '', /JSON/);
    for (const body of ['[]', 'null', '"Rex"', '42']) await bad(url, body, /object/);
  });

  it('names the field: name missing, not a string or blank', async () => {
    const { url } = await serve();
    await bad(url, { categoryId: 1 }, /name/);
    await bad(url, { name: 7, categoryId: 1 }, /name/);
    await bad(url, { name: null, categoryId: 1 }, /name/);
    await bad(url, { name: '   ', categoryId: 1 }, /name/);
  });

  it('names the field: categoryId missing, a numeric string, fractional or outside int64', async () => {
    const { url } = await serve();
    await bad(url, { name: 'Rex' }, /categoryId/);
    await bad(url, { name: 'Rex', categoryId: '7' }, /categoryId/);
    await bad(url, { name: 'Rex', categoryId: 1.5 }, /categoryId/);
    await bad(url, { name: 'Rex', categoryId: null }, /categoryId/);
    await bad(url, '{"name":"Rex","categoryId":1e3}', /categoryId/);
    await bad(url, '{"name":"Rex","categoryId":9223372036854775808}', /categoryId/);
    await bad(url, '{"name":"Rex","categoryId":-9223372036854775809}', /categoryId/);
  });

  it('names the field: status outside the enum', async () => {
    const { url } = await serve();
    for (const status of ['adopted', 'AVAILABLE', null, 1])
      await bad(url, { name: 'Rex', categoryId: 1, status }, /status/);
  });

  it('refuses a body over 64 KiB with 413 and a non-JSON content type with 415', async () => {
    const { url } = await serve();
    const huge = await call(`${url}/pets`, { body: { name: 'x'.repeat(70_000), categoryId: 1 } });
    expect(huge.status).toBe(413);
    expect(errorOf(huge)).toMatchObject({ code: 'payload_too_large', status: 413 });
    const text = await call(`${url}/pets`, {
      body: { name: 'Rex', categoryId: 1 },
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(errorOf(text)).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    expect((await call(`${url}/pets`)).json).toEqual([]);
  });

  it('creates with exact int64 ids and categoryIds, ignores unknown fields, defaults status to available', async () => {
    const { url } = await serve({ idStart: '9007199254740993' });
    const body = '{"name":"Rex","categoryId":9223372036854775807,"id":5,"colour":"brown"}';
    const created = await call(`${url}/pets`, { body });
    expect(created.status).toBe(201);
    expect(created.text).toBe(
      '{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"available"}',
    );
    expect(created.headers.get('location')).toBe(`${url}/pets/9007199254740993`);
    const second = await call(`${url}/pets`, { body: { name: 'Mia', categoryId: -3, status: 'sold' } });
    expect(second.json).toEqual({ id: '9007199254740994', name: 'Mia', categoryId: '-3', status: 'sold' });
    const fetched = await call(`${url}/pets/9007199254740993`);
    expect(fetched.text).toBe(created.text);
  });
});

describe('query and path validation', () => {
  it('refuses limit outside 1..100 or not an integer, and an unknown status', async () => {
    const { url } = await serve();
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=1.5', 'limit=-1', 'limit=', 'limit=1&limit=2']) {
      const answer = await call(`${url}/pets?${query}`);
      expect(answer.status, query).toBe(400);
      expect(errorOf(answer)).toMatchObject({ status: 400, message: expect.stringMatching(/limit/) });
    }
    for (const query of ['status=adopted', 'status=', 'status=Available']) {
      const answer = await call(`${url}/pets?${query}`);
      expect(answer.status, query).toBe(400);
      expect(errorOf(answer)).toMatchObject({ status: 400, message: expect.stringMatching(/status/) });
    }
    expect((await call(`${url}/pets?limit=100&status=sold&page=2`)).status).toBe(200);
  });

  it('refuses a petId that is not an int64, and gives 404 for an unknown one', async () => {
    const { url } = await serve();
    for (const petId of ['abc', '1.0', '01', '9223372036854775808', '%20', '-0']) {
      const answer = await call(`${url}/pets/${petId}`);
      expect(answer.status, petId).toBe(400);
      expect(errorOf(answer)).toMatchObject({ status: 400, message: expect.stringMatching(/petId/) });
    }
    const missing = await call(`${url}/pets/9223372036854775807`);
    expect(missing.status).toBe(404);
    expect(errorOf(missing)).toMatchObject({ code: 'not_found', status: 404 });
  });
});
