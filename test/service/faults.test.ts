import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { RequestLogLine } from './index';
import { call, errorOf, serve } from './test-helpers';

const REX = { name: 'Rex', categoryId: 1 };

describe('faults', () => {
  it('answers 500 and 503 (with Retry-After) Error bodies', async () => {
    const failing = await serve({ faults: '500:1' });
    const error = await call(`${failing.url}/pets`);
    expect(error.status).toBe(500);
    expect(errorOf(error)).toMatchObject({ code: 'internal_error', status: 500 });
    expect(error.headers.get('x-ratelimit-limit')).toBe('300');
    const unavailable = await serve({ faults: '503:1' });
    const answer = await call(`${unavailable.url}/pets`, { body: REX });
    expect(answer.status).toBe(503);
    expect(errorOf(answer)).toMatchObject({ code: 'unavailable', status: 503 });
    expect(answer.headers.get('retry-after')).toBe('1');
    expect(unavailable.animalCount()).toBe(0);
  });

  it('resets the connection before storing, or after the creation is stored', async () => {
    const before = await serve({ faults: 'reset-before:1' });
    await expect(call(`${before.url}/pets`, { body: REX })).rejects.toThrow();
    expect(before.animalCount()).toBe(0);
    const after = await serve({ faults: 'reset-after:1' });
    const line = once(after.events, 'line');
    await expect(call(`${after.url}/pets`, { body: REX })).rejects.toThrow();
    expect(after.animalCount()).toBe(1);
    const [logged] = (await line) as [RequestLogLine];
    expect(logged).toMatchObject({ status: null, outcome: 'reset', fault: 'reset-after', createdId: '1' });
    await expect(call(`${after.url}/pets`)).rejects.toThrow();
  });

  it('stalls until the client gives up, and stop() still closes everything', async () => {
    const service = await serve({ faults: 'stall:1' });
    const line = once(service.events, 'line');
    const headers = { Authorization: 'Bearer test-key-1' };
    await expect(fetch(`${service.url}/pets`, { headers, signal: AbortSignal.timeout(200) })).rejects.toThrow();
    const [logged] = (await line) as [RequestLogLine];
    expect(logged).toMatchObject({ outcome: 'stalled', status: null, fault: 'stall' });
    const hanging = fetch(`${service.url}/pets`, { headers });
    await once(service.events, 'prepared');
    await service.stop();
    await expect(hanging).rejects.toThrow();
  }, 10_000);

  it('never faults a request refused before the operation (401, 400)', async () => {
    const { url } = await serve({ faults: '500:1' });
    expect((await call(`${url}/pets`, { key: 'nope' })).status).toBe(401);
    expect((await call(`${url}/pets?limit=0`)).status).toBe(400);
  });

  it('repeats the same faults under the same --seed', async () => {
    const statuses = async (seed: number) => {
      const { url } = await serve({ faults: '500:0.3,503:0.3', seed });
      const result: number[] = [];
      for (let i = 0; i < 30; i += 1) result.push((await call(`${url}/store/orders`)).status);
      return result;
    };
    const first = await statuses(42);
    expect(await statuses(42)).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500, 503]));
    expect(await statuses(43)).not.toEqual(first);
  });

  it('adds latency from --latency-ms', async () => {
    const { url } = await serve({ latencyMs: '60..80' });
    const started = performance.now();
    expect((await call(`${url}/pets`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
  });
});
