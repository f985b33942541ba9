import { describe, expect, it } from 'vitest';
import { DEPRECATED_AT_SECONDS } from './index';
import { call, errorOf, serve } from './test-helpers';

describe('deprecation of GET /pets/{petId}', () => {
  it('carries Deprecation, Sunset and Link on its answers, and only there', async () => {
    const { url } = await serve({ seedAnimals: 1 });
    for (const path of ['/pets/1', '/pets/2', '/pets/x']) {
      const answer = await call(`${url}${path}`);
      expect(answer.headers.get('deprecation'), path).toBe(`@${DEPRECATED_AT_SECONDS}`);
      expect(answer.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
      expect(answer.headers.get('link')).toBe(`<${url}/pets>; rel="successor-version"`);
    }
    const list = await call(`${url}/pets`);
    expect(list.headers.get('deprecation')).toBeNull();
    expect(list.headers.get('sunset')).toBeNull();
  });

  it('answers 410 gone from the sunset on (pretend clock)', async () => {
    const before = await serve({ seedAnimals: 1, now: '2030-12-04T23:59:58Z' });
    expect((await call(`${before.url}/pets/1`)).status).toBe(200);
    const after = await serve({ seedAnimals: 1, now: '2030-12-05T00:00:00Z' });
    const gone = await call(`${after.url}/pets/1`);
    expect(gone.status).toBe(410);
    expect(errorOf(gone)).toMatchObject({ code: 'gone', status: 410 });
    expect(gone.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(gone.headers.get('x-ratelimit-limit')).toBe('300');
    expect((await call(`${after.url}/pets?limit=1`)).status).toBe(200);
  });

  it('follows an injected clock across the sunset', async () => {
    let now = Date.UTC(2030, 11, 4, 23, 59, 59);
    const { url } = await serve({ seedAnimals: 1, clock: { now: () => now } });
    expect((await call(`${url}/pets/1`)).status).toBe(200);
    now += 1000;
    expect((await call(`${url}/pets/1`)).status).toBe(410);
  });
});
