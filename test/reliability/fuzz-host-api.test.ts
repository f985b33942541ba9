/**
 * Issue 7.5 through the browser host: the fuzzer's payloads (JSON-only) and raw malformed
 * HTTP bodies (invalid JSON, binary, huge, wrong content types, odd paths) over the host's
 * HTTP API with a session. Well-formed calls get 200 and a typed envelope; malformed HTTP
 * gets the host's 4xx; the host keeps answering. Refusals (no/wrong session, foreign Origin or
 * Host) hold on every channel without the router ever being called.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Router } from '../../electron/core/api/router';
import { type BrowserHost, startBrowserHost } from '../../electron/host';
import { CHANNELS } from '../../src/shared/app-api/api';
import { openSession } from '../electron/host/host-http';
import { createFuzzer } from './support/fuzz';
import { answerProblem, type FuzzCore, prototypeIsClean, startFuzzCore } from './support/fuzz-core';
import { watchProcess } from './support/hostile-client';

const API_PAYLOADS = Number(process.env.FUZZ_API_PAYLOADS ?? 2000);
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let fuzz: FuzzCore;
let host: BrowserHost;
let session = '';
let routerCalls = 0;
const watch = watchProcess();

interface Reply {
  status: number;
  body: string;
}

function post(path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const own = new URL(host.url).host;
    const req = httpRequest(
      {
        agent,
        host: '127.0.0.1',
        port: host.port,
        path,
        method: 'POST',
        headers: {
          Host: own,
          Origin: `http://${own}`,
          'Content-Type': 'application/json',
          Cookie: session,
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  fuzz = await startFuzzCore();
  const router: Router = {
    handle: (channel, input) => {
      routerCalls += 1;
      return fuzz.core.router.handle(channel, input);
    },
  };
  host = await startBrowserHost({ router, events: fuzz.core.events, logError: () => undefined });
  session = await openSession(host);
});
afterAll(async () => {
  agent.destroy();
  await host.stop();
  await fuzz.dispose();
  watch.stop();
  expect(watch.problems).toEqual([]);
});

describe('fuzzing the browser host API', () => {
  it(`${API_PAYLOADS} fuzzed payloads: 200 with a typed envelope every time`, async () => {
    const fuzzer = createFuzzer(11, true);
    const problems: string[] = [];
    const started = Date.now();
    for (let i = 0; i < API_PAYLOADS; i += 1) {
      const call = fuzzer.next();
      const reply = await post(`/api/${encodeURIComponent(call.channel)}`, JSON.stringify(call.input) ?? '');
      const parsed = reply.status === 200 ? (JSON.parse(reply.body) as unknown) : null;
      // `/api/` with no channel name is no API path: the host's 404
      const expected = call.channel === '' ? 404 : 200;
      let problem = reply.status === expected ? null : `HTTP ${reply.status}`;
      if (reply.status === 200) problem = answerProblem(call.channel, parsed);
      if (problem) problems.push(`#${i} ${call.channel}: ${problem}`);
      if (call.keys.some((key) => reply.body.includes(key))) problems.push(`#${i}: quoted the key`);
    }
    console.log(`host API fuzz: ${API_PAYLOADS} payloads in ${Date.now() - started} ms, ${problems.length} problems`);
    expect(problems.slice(0, 20)).toEqual([]);
    expect(prototypeIsClean()).toBe(true);
  }, 120_000);

  it('raw malformed bodies and paths get a typed envelope or the host 4xx, and the host still answers', async () => {
    const nested = '['.repeat(400_000) + ']'.repeat(400_000);
    const cases: [string, string, string | Buffer, Record<string, string>, number, string | null][] = [
      ['invalid JSON', 'listPets', '{"profileId":', {}, 200, 'invalid_request'],
      ['binary', 'setKey', Buffer.from([0xff, 0xfe, 0x00, 0x81, 0x7b]), {}, 200, 'invalid_request'],
      ['NUL bytes', 'hasKey', '\u0000\u0000', {}, 200, 'invalid_request'],
      ['empty body', 'listProfiles', '', {}, 200, 'ok'],
      ['JSON null', 'hasKey', 'null', {}, 200, 'invalid_request'],
      ['1e999', 'getPet', '{"profileId":"local","id":1e999}', {}, 200, 'invalid_request'],
      // a channel that answers ok whatever key the fuzzing above left behind
      ['proto key', 'hasKey', '{"__proto__":{"polluted":1},"profileId":"local"}', {}, 200, 'ok'],
      ['deep nesting', 'listPets', nested, {}, 200, 'invalid_request'],
      ['2 MiB body', 'listPets', Buffer.alloc(2 * 1024 * 1024, 0x20), {}, 413, null],
      ['text/plain', 'listPets', '{}', { 'Content-Type': 'text/plain' }, 415, null],
      ['form content type', 'setKey', 'key=x', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415, null],
      // WHATWG URL parsing turns /api/%2e%2e into `/`: not an API path, and POST is refused there
      ['dot-dot channel', '%2e%2e', '{}', {}, 405, null],
      ['encoded slash', 'list%2FPets', '{}', {}, 200, 'invalid_request'],
      ['nested path', 'listPets/extra', '{}', {}, 404, null],
    ];
    const seen: string[] = [];
    for (const [name, channel, body, headers, status, code] of cases) {
      const reply = await post(`/api/${channel}`, body, headers);
      expect(reply.status, name).toBe(status);
      if (code === 'ok') expect(JSON.parse(reply.body), name).toMatchObject({ ok: true });
      else if (code) expect(JSON.parse(reply.body), name).toMatchObject({ ok: false, error: { code } });
      seen.push(`${name} → ${reply.status}${code ? ` ${code}` : ''}`);
    }
    const broken = await post('/api/%E0%A4%A', '{}');
    seen.push(`malformed percent-encoding → ${broken.status}`);
    expect(broken.status).toBe(200);
    expect(JSON.parse(broken.body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    console.log(`raw host API cases: ${seen.join('; ')}`);
    expect(prototypeIsClean()).toBe(true);
    const after = await post('/api/listProfiles', '{}');
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toMatchObject({ ok: true });
  }, 60_000);

  it('every channel refuses no session, a wrong session, a foreign Origin and a foreign Host, never calling the router', async () => {
    const before = routerCalls;
    const refusals: Record<string, string>[] = [
      { Cookie: '' },
      { Cookie: `${session.split('=')[0]}=${'f'.repeat(43)}` },
      { Cookie: `${session}x` },
      { Cookie: session.replace(`-${host.port}=`, '-1=') },
      { Origin: 'http://evil.example' },
      { Origin: 'null' },
      { Host: 'evil.example' },
      { Host: `attacker.example:${host.port}` },
    ];
    for (const channel of CHANNELS) {
      for (const headers of refusals) {
        const reply = await post(`/api/${channel}`, '{"profileId":"local"}', headers);
        expect(reply.status, `${channel} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    expect(routerCalls).toBe(before);
  });
});
