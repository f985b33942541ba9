import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRequestLog } from './index';
import { call, KEY, serve, tempFolder } from './test-helpers';

describe('request log (--log)', () => {
  it('writes one JSON line per request with a key hash, never the key', async () => {
    const log = join(await tempFolder(), 'requests.jsonl');
    const { url } = await serve({ logFile: log, seedAnimals: 2 });
    await call(`${url}/pets?limit=1`);
    await call(`${url}/pets`, { body: { name: 'Rex', categoryId: 1 }, headers: { 'Idempotency-Key': 'idem-1' } });
    await call(`${url}/pets/1`, { key: 'not-a-key' });
    const lines = await readRequestLog(log);
    expect(lines).toHaveLength(3);
    const hash = createHash('sha256').update(KEY).digest('hex').slice(0, 12);
    expect(lines[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      keyHash: hash,
      client: '127.0.0.1',
      method: 'GET',
      path: '/v1/pets?limit=1',
      status: 200,
      rateLimitLimit: 300,
      rateLimitRemaining: 299,
      rateLimitReset: expect.any(Number),
      retryAfter: null,
      idempotencyKey: null,
      latencyMs: expect.any(Number),
      toldToWait: false,
      fault: null,
      outcome: 'response',
      createdId: null,
    });
    expect(lines[1]).toMatchObject({ method: 'POST', status: 201, idempotencyKey: 'idem-1', createdId: '3' });
    expect(lines[2]).toMatchObject({ keyHash: null, status: 401, rateLimitLimit: 60 });
    const text = await readFile(log, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('not-a-key');
  });

  it('lets a test count creations per idempotency key', async () => {
    const log = join(await tempFolder(), 'requests.jsonl');
    const { url } = await serve({ logFile: log });
    for (let i = 0; i < 3; i += 1) {
      await call(`${url}/pets`, { body: { name: 'Rex', categoryId: 1 }, headers: { 'Idempotency-Key': 'same' } });
    }
    const lines = await readRequestLog(log);
    const creations = lines.filter((line) => line.idempotencyKey === 'same' && line.createdId !== null);
    expect(lines.map((line) => line.status)).toEqual([201, 201, 201]);
    expect(creations).toHaveLength(1);
  });

  it('names the idempotency key of a creation refused by the rate limit (the shared-key bench attributes refusals by it)', async () => {
    const log = join(await tempFolder(), 'requests.jsonl');
    const { url } = await serve({ logFile: log, keys: { k: 'enterprise:1:100' }, minuteMs: 60_000 });
    const body = { name: 'Rex', categoryId: 1 };
    await call(`${url}/pets`, { key: 'k', body, headers: { 'Idempotency-Key': 'first' } });
    await call(`${url}/pets`, { key: 'k', body, headers: { 'Idempotency-Key': 'second' } });
    await call(`${url}/pets?limit=1`, { key: 'k', headers: { 'Idempotency-Key': 'on-a-read' } });
    const lines = await readRequestLog(log);
    expect(lines.map((line) => [line.status, line.idempotencyKey])).toEqual([
      [201, 'first'],
      [429, 'second'],
      [429, null],
    ]);
  });
});
