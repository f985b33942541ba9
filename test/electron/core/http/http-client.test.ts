import { describe, expect, it } from 'vitest';
import { type HttpExchange, sendHttp } from '../../../../electron/core/http/http-client';
import { FakeClock } from '../../../support/fake-clock';
import { createFakeFetch, type Script } from '../fake-fetch';

const KEY = 'secret-key-123';
const BASE = 'https://api.example.org/v1/pets';
const ORIGIN = 'https://api.example.org';

function setup(script: Script, maxBodyBytes?: number) {
  const clock = new FakeClock();
  const fake = createFakeFetch(clock, script);
  const send = (url = BASE, signal?: AbortSignal) =>
    sendHttp(
      { method: 'GET', url: new URL(url), bearerKey: KEY, keyOrigin: ORIGIN, ...(signal ? { signal } : {}) },
      { fetch: fake.fetch, clock, ...(maxBodyBytes ? { maxBodyBytes } : {}) },
    );
  return { clock, fake, send };
}

function failureCode(exchange: HttpExchange): string | null {
  return exchange.kind === 'failure' ? exchange.error.code : null;
}

describe('sendHttp', () => {
  it('refuses, sending nothing, a request to an origin other than the key is bound to', async () => {
    const { fake, send } = setup(() => ({ status: 200, body: [] }));
    for (const url of [
      'https://evil.example/v1/pets',
      'http://api.example.org/v1/pets',
      'https://api.example.org:8443/v1',
    ]) {
      const exchange = await send(url);
      expect(failureCode(exchange), url).toBe('no_key');
      expect(JSON.stringify(exchange)).not.toContain(KEY);
    }
    expect(fake.requests).toEqual([]);
  });

  it('adds the bearer key, asks for JSON and never follows redirects on its own', async () => {
    const { fake, send } = setup(() => ({ status: 200, body: [] }));
    const exchange = await send();
    expect(exchange).toMatchObject({ kind: 'response', response: { status: 200, text: '[]' } });
    expect(fake.requests[0]?.headers.get('Authorization')).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0]?.headers.get('Accept')).toBe('application/json');
    expect(fake.requests[0]?.redirect).toBe('manual');
  });

  it('answers offline on a network error', async () => {
    const { send } = setup(() => 'network-error');
    const exchange = await send();
    expect(failureCode(exchange)).toBe('offline');
    expect(exchange.kind === 'failure' && exchange.error.message).toMatch(/could not be reached/);
  });

  it('says the request was never sent only when no connection was made', async () => {
    const clock = new FakeClock();
    const rejecting = (error: Error) => async () => Promise.reject(error);
    const send = (error: Error) =>
      sendHttp(
        { method: 'POST', url: new URL(BASE), bearerKey: KEY, keyOrigin: ORIGIN, body: '{}' },
        { fetch: rejecting(error), clock },
      );
    const socket = (code: string, message = code) =>
      new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
    // As Node's fetch (undici) reports a refused connection and an unknown host.
    for (const error of [socket('ECONNREFUSED'), socket('ENOTFOUND')]) {
      expect(await send(error)).toMatchObject({ kind: 'failure', error: { code: 'offline', notSent: true } });
    }
    // A dropped or reset connection may have carried the request: the outcome is unknown.
    for (const error of [socket('UND_ERR_SOCKET', 'other side closed'), socket('ECONNRESET'), new Error('boom')]) {
      const exchange = await send(error);
      expect(exchange).toMatchObject({ kind: 'failure', error: { code: 'offline' } });
      expect(exchange.kind === 'failure' && 'notSent' in exchange.error).toBe(false);
    }
  });

  it('does not call a refused redirect target "never sent": the first hop reached the service', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const fetchOnce: typeof fetch = async () => {
      calls += 1;
      if (calls === 1) return new Response(null, { status: 307, headers: { Location: '/v1/elsewhere' } });
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) });
    };
    const exchange = await sendHttp(
      { method: 'POST', url: new URL(BASE), bearerKey: KEY, keyOrigin: ORIGIN, body: '{}' },
      { fetch: fetchOnce, clock },
    );
    expect(exchange).toMatchObject({ kind: 'failure', error: { code: 'offline' } });
    expect(exchange.kind === 'failure' && exchange.error.notSent).toBeUndefined();
  });

  it('times out when the response headers do not come within 15 s', async () => {
    const { clock, send } = setup(() => 'hang');
    const pending = send();
    await clock.advanceAndSettle(14_999);
    let settled = false;
    void pending.then(() => (settled = true));
    await clock.flush();
    expect(settled).toBe(false);
    await clock.advanceAndSettle(1);
    expect(failureCode(await pending)).toBe('timeout');
  });

  it('times out when the body is still incomplete after 30 s in total', async () => {
    const clock = new FakeClock();
    const neverEnding = async () =>
      new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('[')) }));
    const pending = sendHttp(
      { method: 'GET', url: new URL(BASE), bearerKey: KEY, keyOrigin: ORIGIN },
      { fetch: neverEnding, clock },
    );
    await clock.advanceAndSettle(30_000);
    expect(failureCode(await pending)).toBe('timeout');
  });

  it('answers cancelled when the caller aborts', async () => {
    const { clock, send } = setup(() => 'hang');
    const controller = new AbortController();
    const pending = send(BASE, controller.signal);
    await clock.flush();
    controller.abort();
    expect(failureCode(await pending)).toBe('cancelled');
  });

  it('follows a redirect within the origin with the key again', async () => {
    const { fake, send } = setup((request) =>
      request.url.endsWith('/v1/pets')
        ? { status: 307, headers: { Location: '/v1/animals' } }
        : { status: 200, body: [] },
    );
    const exchange = await send();
    expect(exchange.kind).toBe('response');
    expect(fake.requests.map((r) => r.url)).toEqual([BASE, 'https://api.example.org/v1/animals']);
    expect(fake.requests[1]?.headers.get('Authorization')).toBe(`Bearer ${KEY}`);
  });

  it('does not follow a redirect to another origin, so the key never goes there', async () => {
    const { fake, send } = setup(() => ({ status: 302, headers: { Location: 'https://evil.example.com/steal' } }));
    const exchange = await send();
    expect(failureCode(exchange)).toBe('bad_response');
    expect(exchange.kind === 'failure' && exchange.error.message).toMatch(/redirect/);
    expect(fake.requests).toHaveLength(1);
  });

  it('stops after three redirects within the origin', async () => {
    const { fake, send } = setup((_r, i) => ({ status: 301, headers: { Location: `/v1/hop${i}` } }));
    expect(failureCode(await send())).toBe('bad_response');
    expect(fake.requests).toHaveLength(4);
  });

  it('cuts off a body over the cap, declared or streamed', async () => {
    const big = 'x'.repeat(2000);
    const declared = setup(() => ({ status: 200, body: big }), 1000);
    expect(failureCode(await declared.send())).toBe('bad_response');
    const clock = new FakeClock();
    let pulls = 0;
    const streamed = async () =>
      new Response(
        new ReadableStream({
          pull: (controller) => {
            pulls += 1;
            controller.enqueue(new Uint8Array(600));
          },
        }),
      );
    const exchange = await sendHttp(
      { method: 'GET', url: new URL(BASE), bearerKey: KEY, keyOrigin: ORIGIN },
      { fetch: streamed, clock, maxBodyBytes: 1000 },
    );
    expect(exchange.kind === 'failure' && exchange.error).toMatchObject({ code: 'bad_response', status: 200 });
    expect(exchange.kind === 'failure' && exchange.error.message).toMatch(/too large/);
    expect(pulls).toBeLessThan(5);
  });
});
