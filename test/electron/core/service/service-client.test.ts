import { describe, expect, it } from 'vitest';
import { KeychainUnavailableError } from '../../../../electron/core/keys/secret-store';
import { RateLimitGovernor } from '../../../../electron/core/rate-limit/governor';
import { createServiceClient, GET_PET_SUNSET_MS } from '../../../../electron/core/service/service-client';
import type { DiagnosticEntry } from '../../../../src/shared/app-api/diagnostics';
import { FakeClock } from '../../../support/fake-clock';
import { createFakeFetch, rateHeaders, type Script } from '../fake-fetch';

const KEY = 'k3y-SECRET-value';
const BIG_ID = '9223372036854775807';
const animalJson = (id: string) => `{"id":${id},"name":"Rex","categoryId":9007199254740993,"status":"available"}`;

function setup(script: Script, options: { key?: string | null; start?: number } = {}) {
  const clock = new FakeClock(options.start);
  const fake = createFakeFetch(clock, script);
  const governor = new RateLimitGovernor({ profileId: 'p1', clock, random: () => 0.5 });
  const entries: DiagnosticEntry[] = [];
  const client = createServiceClient({
    fetch: fake.fetch,
    baseUrl: 'https://api.example.org/v1/',
    getKey: async () => (options.key === undefined ? KEY : options.key),
    governor,
    clock,
    profileId: 'p1',
    onRequest: (entry) => entries.push(entry),
  });
  return { clock, fake, client, entries, governor };
}

const json = (status: number, body: string, headers: Record<string, string> = {}) => ({
  status,
  body,
  headers: { 'Content-Type': 'application/json', ...headers },
});
const serviceError = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json(status, JSON.stringify({ code, message, status }), headers);

describe('service client', () => {
  it('lists animals with exact int64 ids and records a diagnostic entry without the key', async () => {
    const { clock, fake, client, entries } = setup(() =>
      json(200, `[${animalJson(BIG_ID)}]`, rateHeaders(0, 60, 59, 60_000)),
    );
    const result = await client.listPets({ limit: 5, status: 'available' });
    expect(result).toEqual({
      ok: true,
      data: {
        animals: [{ id: BIG_ID, name: 'Rex', categoryId: '9007199254740993', status: 'available' }],
        fetchedAt: clock.now(),
      },
    });
    expect(fake.requests[0]?.url).toBe('https://api.example.org/v1/pets?limit=5&status=available');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: '/pets?limit=5&status=available',
      status: 200,
      outcome: 'ok',
    });
    expect(entries[0]?.rateLimit.remaining).toBe('59');
    expect(JSON.stringify(entries)).not.toContain(KEY);
  });

  it('answers bad_response for a body that does not match the contract, or a 200 HTML page', async () => {
    const mismatch = setup(() => json(200, '[{"id":"x","name":5}]'));
    expect(await mismatch.client.listPets({})).toMatchObject({ ok: false, error: { code: 'bad_response' } });
    const html = setup(() => ({ status: 200, body: '<html>Sign in to the guest Wi-Fi</html>' }));
    expect(await html.client.listPets({})).toMatchObject({ ok: false, error: { code: 'bad_response' } });
  });

  it.each([
    [serviceError(401, 'unauthorized', 'unknown API key'), 'unauthorized', 'unauthorized'],
    [serviceError(400, 'invalid_body', 'categoryId is required'), 'invalid', 'invalid_body'],
    [serviceError(404, 'not_found', 'no animal 5'), 'not_found', 'not_found'],
    [serviceError(418, 'teapot', 'I am a teapot'), 'http_418', 'teapot'],
  ])('maps a %# error response to its code and keeps the service code', async (reply, code, serviceCode) => {
    const { client } = setup(() => reply);
    const result = await client.getPet('5');
    expect(result).toMatchObject({ ok: false, error: { code, serviceCode, status: reply.status } });
  });

  it('keeps the service message for 400 and never puts the key in a message', async () => {
    const invalid = setup(() => serviceError(400, 'invalid', 'name is required'));
    expect(await invalid.client.createPet({ name: 'Rex', categoryId: '1' }, 'a1')).toMatchObject({
      error: { code: 'invalid', message: 'name is required' },
    });
    const echo = setup(() => serviceError(401, 'unauthorized', `key ${KEY} is unknown`));
    const result = await echo.client.listPets({});
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('answers server_error for a 5xx HTML page after retrying the GET 3 times', async () => {
    const { clock, fake, client } = setup(() => ({ status: 502, body: '<html>Bad Gateway</html>' }));
    const pending = client.listPets({});
    await clock.advanceAndSettle(60_000);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'server_error', status: 502 } });
    expect(fake.requests).toHaveLength(4);
  });

  it('answers banned with the wait for key_banned, without retrying', async () => {
    const { fake, client, governor } = setup(() =>
      serviceError(429, 'key_banned', 'banned for sending requests while told to wait', { 'Retry-After': '300' }),
    );
    const result = await client.listPets({});
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'banned', retryAfterMs: 300_000, serviceCode: 'key_banned' },
    });
    expect(fake.requests).toHaveLength(1);
    expect(governor.snapshot().pauseReason).toBe('banned');
  });

  it('sends the Idempotency-Key and int64 ids as JSON integers, and retries a 503 with the same key', async () => {
    const { clock, fake, client } = setup((_r, i) => (i === 0 ? { status: 503 } : json(201, animalJson('77'))));
    const pending = client.createPet({ name: 'Rex', categoryId: '9007199254740993' }, 'idem-1');
    await clock.advanceAndSettle(10_000);
    expect(await pending).toMatchObject({ ok: true, data: { animal: { id: '77', categoryId: '9007199254740993' } } });
    expect(fake.requests.map((r) => r.headers.get('Idempotency-Key'))).toEqual(['"idem-1"', '"idem-1"']);
    expect(fake.requests[0]?.body).toBe('{"name":"Rex","categoryId":9007199254740993}');
    expect(fake.requests[0]?.method).toBe('POST');
  });

  it('answers rate_limited with the wait once the retries of a GET are used up', async () => {
    const { clock, fake, client } = setup(() => serviceError(429, 'rate_limited', 'slow down', { 'Retry-After': '2' }));
    const pending = client.listPets({});
    await clock.advanceAndSettle(60_000);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'rate_limited', retryAfterMs: 2000 } });
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[1]!.at - fake.requests[0]!.at).toBe(2000);
  });

  it('leaves a keyed POST whose answer was lost to the outbox (it may have been stored)', async () => {
    for (const answer of [{ status: 500 }, { status: 502 }]) {
      const { clock, fake, client } = setup(() => answer);
      const pending = client.createPet({ name: 'Rex', categoryId: '1' }, 'idem-2');
      await clock.advanceAndSettle(60_000);
      expect(await pending).toMatchObject({ ok: false, error: { code: 'server_error' } });
      expect(fake.requests).toHaveLength(1);
    }
  });

  it('never resends a POST without an Idempotency-Key', async () => {
    const { clock, fake, client } = setup(() => ({ status: 503 }));
    const pending = client.createPet({ name: 'Rex', categoryId: '1' }, '');
    await clock.advanceAndSettle(60_000);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'rate_limited', status: 503 } });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.headers.has('Idempotency-Key')).toBe(false);
  });

  it('reports the Deprecation and Sunset headers of getPet', async () => {
    const headers = { Deprecation: '@1735689600', Sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' };
    const { client } = setup(() => json(200, animalJson(BIG_ID), headers));
    const result = await client.getPet(BIG_ID);
    expect(result).toMatchObject({
      ok: true,
      data: { animal: { id: BIG_ID }, deprecation: { deprecation: '@1735689600', sunset: headers.Sunset } },
    });
  });

  it('stops calling getPet after a 410 and from the sunset date on', async () => {
    const removed = setup(() => serviceError(410, 'gone', 'removed'));
    expect(await removed.client.getPet('5')).toMatchObject({ error: { code: 'gone' } });
    expect(await removed.client.getPet('6')).toMatchObject({ error: { code: 'gone' } });
    expect(removed.fake.requests).toHaveLength(1);
    const late = setup(() => json(200, animalJson('5')), { start: GET_PET_SUNSET_MS });
    expect(await late.client.getPet('5')).toMatchObject({ error: { code: 'gone' } });
    expect(late.fake.requests).toHaveLength(0);
  });

  it('refuses an id that is not an int64 before any request', async () => {
    const { fake, client } = setup(() => json(200, animalJson('5')));
    expect(await client.getPet('../store/orders')).toMatchObject({ error: { code: 'invalid_request' } });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers keychain_unavailable without sending anything when the keychain cannot be read', async () => {
    const clock = new FakeClock();
    const fake = createFakeFetch(clock, () => json(200, '[]'));
    const client = createServiceClient({
      fetch: fake.fetch,
      baseUrl: 'https://api.example.org/v1',
      getKey: () => Promise.reject(new KeychainUnavailableError('Cannot autolaunch D-Bus without X11 $DISPLAY')),
      governor: new RateLimitGovernor({ profileId: 'p1', clock }),
      clock,
      profileId: 'p1',
    });
    const result = await client.listPets({});
    expect(result).toMatchObject({ ok: false, error: { code: 'keychain_unavailable' } });
    if (!result.ok) expect(result.error.message).toMatch(/keychain/i);
    expect(fake.requests).toHaveLength(0);
  });

  it('answers no_key without sending anything when the profile has no key', async () => {
    const { fake, client } = setup(() => json(200, '[]'), { key: null });
    expect(await client.listPets({})).toMatchObject({ ok: false, error: { code: 'no_key' } });
    expect(fake.requests).toHaveLength(0);
  });

  it('returns the orders body as untyped JSON', async () => {
    const { fake, client } = setup(() => json(200, '{"orders":[{"id":1,"total":9.5}]}'));
    expect(await client.ordersRaw()).toMatchObject({ ok: true, data: { body: { orders: [{ id: '1', total: 9.5 }] } } });
    expect(fake.requests[0]?.url).toBe('https://api.example.org/v1/store/orders');
  });

  it('tells whether a key is valid, invalid or the service unreachable', async () => {
    expect(await setup(() => json(200, '[]')).client.testKey()).toMatchObject({ data: { result: 'valid' } });
    expect(await setup(() => serviceError(401, 'unauthorized', 'x')).client.testKey()).toMatchObject({
      data: { result: 'invalid' },
    });
    const down = setup(() => 'network-error');
    const pending = down.client.testKey();
    await down.clock.advanceAndSettle(60_000);
    expect(await pending).toMatchObject({ data: { result: 'unreachable' } });
  });

  it('answers cancelled when the caller aborts while the request waits in the queue', async () => {
    const { clock, fake, client } = setup(() =>
      serviceError(429, 'rate_limited', 'slow down', { 'Retry-After': '30' }),
    );
    void client.listPets({});
    await clock.flush();
    const controller = new AbortController();
    const pending = client.listPets({}, { signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'cancelled' } });
    expect(fake.requests).toHaveLength(1);
  });
});
