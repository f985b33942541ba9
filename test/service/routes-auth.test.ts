import { describe, expect, it } from 'vitest';
import { call, errorOf, rateHeaders, serve } from './test-helpers';

describe('routes', () => {
  it('answers the three operations and the orders listing under /v1', async () => {
    const { url } = await serve({ seedAnimals: 3 });
    const list = await call(`${url}/pets`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-type')).toBe('application/json');
    expect((list.json as unknown[]).length).toBe(3);
    const orders = await call(`${url}/store/orders`);
    expect(orders.status).toBe(200);
    expect(orders.json).toEqual([]);
    const one = await call(`${url}/pets/1`);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ id: '1' });
  });

  it('gives 404 with an Error body for an unknown path', async () => {
    const { url } = await serve();
    for (const path of ['/nope', '/pets/1/extra', '/store', '/pets/']) {
      const answer = await call(`${url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(errorOf(answer)).toMatchObject({ code: 'not_found', status: 404 });
    }
    const outside = await call(url.replace('/v1', '/v2/pets'));
    expect(outside.status).toBe(404);
  });

  it('gives 405 with Allow for a known path and a wrong method', async () => {
    const { url } = await serve();
    const cases: [string, string, string][] = [
      ['DELETE', '/pets', 'GET, POST'],
      ['PUT', '/pets/1', 'GET'],
      ['POST', '/store/orders', 'GET'],
      ['PATCH', '/pets', 'GET, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await call(`${url}${path}`, { method });
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.headers.get('allow')).toBe(allow);
      expect(errorOf(answer)).toMatchObject({ code: 'method_not_allowed', status: 405 });
      expect(rateHeaders(answer).limit).toBe(300);
    }
  });
});

describe('authentication', () => {
  it('refuses a missing, malformed or unknown key with 401 and rate-limit headers', async () => {
    const { url } = await serve();
    const cases: [string, Record<string, string>, RegExp][] = [
      ['missing', {}, /missing/],
      ['basic', { Authorization: 'Basic dGVzdDp0ZXN0' }, /malformed/],
      ['no token', { Authorization: 'Bearer ' }, /malformed/],
      ['two tokens', { Authorization: 'Bearer a b' }, /malformed/],
      ['unknown', { Authorization: 'Bearer someone-else' }, /unknown/],
    ];
    for (const [name, headers, message] of cases) {
      for (const path of ['/pets', '/pets/1', '/store/orders']) {
        const answer = await call(`${url}${path}`, { key: null, headers });
        expect(answer.status, `${name} ${path}`).toBe(401);
        expect(answer.json).toEqual({ code: 'unauthorized', message: expect.stringMatching(message), status: 401 });
        expect(answer.headers.get('x-ratelimit-limit')).toBe('60');
        // The header must be there and a whole number (Number(null) would be 0 and pass).
        expect(answer.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
        expect(Number(answer.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
      }
    }
    const post = await call(`${url}/pets`, { key: 'nope', body: { name: 'A', categoryId: 1 } });
    expect(post.status).toBe(401);
  });

  it('reads the auth scheme case-insensitively (RFC 9110 §11.1)', async () => {
    const { url } = await serve();
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const answer = await call(`${url}/pets`, { key: null, headers: { Authorization: `${scheme} test-key-1` } });
      expect(answer.status, scheme).toBe(200);
    }
  });

  it('accepts each configured key with its plan', async () => {
    const { url } = await serve({ keys: { a: 'free', b: 'business', c: 'enterprise:7:70' } });
    expect(rateHeaders(await call(`${url}/pets`, { key: 'a' }))).toMatchObject({ limit: 60, remaining: 59 });
    expect(rateHeaders(await call(`${url}/pets`, { key: 'b' }))).toMatchObject({ limit: 1000, remaining: 999 });
    expect(rateHeaders(await call(`${url}/pets`, { key: 'c' }))).toMatchObject({ limit: 7, remaining: 6 });
  });
});
