import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequestLog, type RequestLogLine } from './index';
import { call, errorOf, serve, tempFolder } from './test-helpers';

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

  it("has written every line, a stalled request's too, when stop() resolves (the caller may then remove the folder)", async () => {
    // CI (stop 36): the e2e fixture removed the data folder right after stop(); a stalled request's
    // line came a loop turn later (a socket's 'close' follows its server's), and appendFileSync threw
    // ENOENT as an uncaught error in the test runner.
    const folder = await tempFolder();
    const logFile = join(folder, 'requests.log');
    const service = await serve({ faults: 'stall:1', logFile });
    const hanging = fetch(`${service.url}/pets`, { headers: { Authorization: 'Bearer test-key-1' } }).then(
      () => 'answered',
      () => 'closed',
    );
    await once(service.events, 'prepared');
    await service.stop();
    const lines = (await readRequestLog(logFile)).map((line) => line.outcome);
    await rm(folder, { recursive: true, force: true });
    expect(await hanging).toBe('closed');
    expect(lines).toEqual(['stalled']);
  }, 10_000);

  it('writes nothing after stop() for a request it was still delaying', async () => {
    const folder = await tempFolder();
    const logFile = join(folder, 'requests.log');
    const service = await serve({ latencyMs: '300..300', logFile });
    const hanging = fetch(`${service.url}/pets`, { headers: { Authorization: 'Bearer test-key-1' } }).then(
      () => 'answered',
      () => 'closed',
    );
    await once(service.events, 'prepared');
    const handled = once(service.events, 'handled');
    await service.stop();
    expect(await hanging).toBe('closed');
    // The delayed operation ends 300 ms later, after the service stopped: nothing is written.
    await handled;
    expect(await readRequestLog(logFile)).toEqual([]);
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
