import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequestLog } from './index';
import { call, errorOf, rateHeaders, serve, tempFolder } from './test-helpers';

const WINDOW_MS = 1000;

describe('rate limits', () => {
  it('counts every request (4xx too) in the per-minute window and answers 429 with Retry-After', async () => {
    const { url } = await serve({ keys: { k: 'enterprise:3:100' }, minuteMs: WINDOW_MS });
    const first = await call(`${url}/pets`, { key: 'k' });
    expect(rateHeaders(first)).toMatchObject({ limit: 3, remaining: 2 });
    expect(rateHeaders(first).reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
    expect(rateHeaders(first).reset).toBeLessThanOrEqual(Math.ceil((Date.now() + WINDOW_MS) / 1000));
    expect(rateHeaders(await call(`${url}/pets?limit=0`, { key: 'k' }))).toMatchObject({ remaining: 1 });
    expect(rateHeaders(await call(`${url}/nope`, { key: 'k' }))).toMatchObject({ remaining: 0 });
    const limited = await call(`${url}/pets`, { key: 'k' });
    expect(limited.status).toBe(429);
    expect(errorOf(limited)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(rateHeaders(limited)).toMatchObject({ limit: 3, remaining: 0 });
    await delay(Number(limited.headers.get('retry-after')) * 1000);
    const after = await call(`${url}/pets`, { key: 'k' });
    expect(after.status).toBe(200);
    expect(rateHeaders(after)).toMatchObject({ limit: 3, remaining: 2 });
  });

  it('reports the window nearest to exhaustion: the day when it has fewer left', async () => {
    const { url } = await serve({ keys: { k: 'enterprise:100:2' }, minuteMs: WINDOW_MS, dayMs: 60_000 });
    const first = await call(`${url}/pets`, { key: 'k' });
    expect(rateHeaders(first)).toMatchObject({ limit: 2, remaining: 1 });
    expect(rateHeaders(first).reset).toBeGreaterThan(Date.now() / 1000 + 50);
    await call(`${url}/pets`, { key: 'k' });
    const limited = await call(`${url}/pets`, { key: 'k' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('limits requests without a valid key per client address on the Free plan', async () => {
    const { url } = await serve();
    const answers = await Promise.all(Array.from({ length: 61 }, () => call(`${url}/pets`, { key: 'wrong' })));
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(60);
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited && errorOf(limited)).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited && rateHeaders(limited)).toMatchObject({ limit: 60, remaining: 0 });
    expect((await call(`${url}/pets`)).status).toBe(200);
  });

  it('keeps answering 429 while the key is told to wait, then bans it', async () => {
    const log = join(await tempFolder(), 'requests.jsonl');
    const { url } = await serve({ keys: { k: 'enterprise:1:100' }, banAfter: 2, banSeconds: 5, logFile: log });
    expect((await call(`${url}/pets`, { key: 'k' })).status).toBe(200);
    const told = await call(`${url}/pets`, { key: 'k' });
    expect(errorOf(told).code).toBe('rate_limited');
    for (let i = 0; i < 2; i += 1) {
      const again = await call(`${url}/pets`, { key: 'k' });
      expect(again.status).toBe(429);
      expect(errorOf(again).code).toBe('rate_limited');
    }
    const banned = await call(`${url}/pets`, { key: 'k' });
    expect(banned.status).toBe(429);
    expect(errorOf(banned)).toMatchObject({ code: 'key_banned', status: 429 });
    expect(banned.headers.get('retry-after')).toBe('5');
    expect(banned.headers.get('x-ratelimit-limit')).toBe('1');
    const stillBanned = await call(`${url}/pets/1`, { key: 'k' });
    expect(errorOf(stillBanned).code).toBe('key_banned');
    expect(Number(stillBanned.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    const lines = await readRequestLog(log);
    expect(lines.map((line) => [line.status, line.toldToWait])).toEqual([
      [200, false],
      [429, false],
      [429, true],
      [429, true],
      [429, true],
      [429, true],
    ]);
    expect(lines.map((line) => line.retryAfter)).toEqual([null, 60, 60, 60, 5, expect.any(Number)]);
  });

  it('bans an address without a valid key as address_banned, not key_banned', async () => {
    const { url } = await serve({ banAfter: 1, banSeconds: 5 });
    const refused = await Promise.all(Array.from({ length: 61 }, () => call(`${url}/pets`, { key: 'wrong' })));
    expect(refused.filter((answer) => answer.status === 429)).toHaveLength(1);
    expect(errorOf(await call(`${url}/pets`, { key: 'wrong' })).code).toBe('rate_limited');
    const banned = await call(`${url}/pets`, { key: 'wrong' });
    expect(banned.status).toBe(429);
    expect(errorOf(banned)).toMatchObject({
      code: 'address_banned',
      status: 429,
      message: expect.stringMatching(/address/),
    });
    expect(banned.headers.get('retry-after')).toBe('5');
  });

  it('keeps separate windows per key', async () => {
    const { url } = await serve({ keys: { a: 'enterprise:1:10', b: 'enterprise:1:10' }, minuteMs: WINDOW_MS });
    expect((await call(`${url}/pets`, { key: 'a' })).status).toBe(200);
    expect((await call(`${url}/pets`, { key: 'a' })).status).toBe(429);
    expect((await call(`${url}/pets`, { key: 'b' })).status).toBe(200);
  });
});
