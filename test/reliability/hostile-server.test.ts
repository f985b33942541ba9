/**
 * Issue 7.3, bodies and transport: our real service client + governor against a hostile
 * server over real HTTP. Every misbehaviour ends in a clear error value (so nothing is
 * written to the cache), a bounded read, and no crash; ids above 2^53 stay exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../electron/core/http/http-client';
import { BIG_IDS, type HostileServer, startHostileServer } from './hostile-server';
import { expectCleanError, hostileClient, KEY, watchProcess } from './support/hostile-client';

const MiB = 1024 * 1024;
let server: HostileServer;
let other: HostileServer;
const watch = watchProcess();

beforeAll(async () => {
  server = await startHostileServer();
  other = await startHostileServer();
});
afterAll(async () => {
  await server.stop();
  await other.stop();
  watch.stop();
  expect(watch.problems).toEqual([]);
});

describe('hostile server: bodies', () => {
  it('malformed JSON is a bad_response on every operation', async () => {
    const { client } = hostileClient(server.base('malformed-json'));
    expectCleanError(await client.listPets({ limit: 5 }), 'bad_response');
    expectCleanError(await client.getPet('1'), 'bad_response');
    expectCleanError(await client.createPet({ name: 'Rex', categoryId: '2' }, crypto.randomUUID()), 'bad_response');
    expectCleanError(await client.ordersRaw(), 'bad_response');
  });

  it('wrong types and wrong shapes are bad_response, never partial data', async () => {
    const typed = hostileClient(server.base('wrong-types')).client;
    expectCleanError(await typed.listPets({ limit: 5 }), 'bad_response');
    const shaped = hostileClient(server.base('wrong-shape')).client;
    expectCleanError(await shaped.listPets({ limit: 5 }), 'bad_response');
    expectCleanError(await shaped.getPet('7'), 'bad_response');
  });

  it('ids above 2^53 stay exact strings through list, get and create (and go out as exact JSON integers)', async () => {
    const { client } = hostileClient(server.base('big-ids'));
    const list = await client.listPets({ limit: 3 });
    if (!list.ok) throw new Error(list.error.message);
    expect(list.data.animals.map((a) => a.id)).toEqual([...BIG_IDS]);
    expect(list.data.animals.every((a) => a.categoryId === BIG_IDS[2])).toBe(true);
    const one = await client.getPet(BIG_IDS[1]);
    expect(one.ok && one.data.animal.id).toBe(BIG_IDS[1]);
    const created = await client.createPet({ name: 'Max', categoryId: BIG_IDS[1] }, crypto.randomUUID());
    expect(created.ok && created.data.animal).toMatchObject({ id: BIG_IDS[0], categoryId: BIG_IDS[1] });
    const sent = server.requestsTo('big-ids').find((r) => r.method === 'POST');
    expect(sent?.body).toContain(`"categoryId":${BIG_IDS[1]}`);
    console.log(`big ids: ${list.data.animals.map((a) => a.id).join(', ')} exact through the client`);
  });

  it('a 50 MiB streamed body is cut off at the 5 MiB cap, not buffered', async () => {
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const { client } = hostileClient(server.base('huge'));
    const error = expectCleanError(await client.listPets({ limit: 5 }), 'bad_response');
    expect(error.message).toBe(MESSAGES.tooLarge);
    const closed = await server.streams.huge?.closed;
    expect(closed?.early).toBe(true);
    expect(closed?.sentBytes).toBeLessThan(25 * MiB);
    const grewMiB = (process.memoryUsage().rss - before) / MiB;
    console.log(
      `50 MiB body: refused after ${Date.now() - started} ms; server had sent ${(closed!.sentBytes / MiB).toFixed(1)} MiB` +
        ` when the client closed; rss +${grewMiB.toFixed(0)} MiB`,
    );
  });

  it('a declared 50 MiB body is refused before reading it', async () => {
    const { client } = hostileClient(server.base('huge-declared'));
    expect(expectCleanError(await client.listPets({ limit: 5 }), 'bad_response').message).toBe(MESSAGES.tooLarge);
    const closed = await server.streams['huge-declared']?.closed;
    expect(closed?.early).toBe(true);
    console.log(`declared 50 MiB: server had handed ${(closed!.sentBytes / MiB).toFixed(1)} MiB to its socket`);
  });

  it('a body that trickles one byte a second times out on the total timeout and the connection is closed', async () => {
    const { client } = hostileClient(server.base('trickle-body'), {
      http: { headersTimeoutMs: 300, totalTimeoutMs: 400 },
    });
    const started = Date.now();
    expectCleanError(await client.listPets({ limit: 5 }), 'timeout');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(1000);
    expect((await server.streams['trickle-body']?.closed)?.early).toBe(true);
    console.log(`trickling body: timeout after ${elapsed} ms (total timeout 400 ms)`);
  });

  it('headers that trickle one byte a second time out on the headers timeout', async () => {
    const { client } = hostileClient(server.base('trickle-headers'), {
      http: { headersTimeoutMs: 250, totalTimeoutMs: 2000 },
    });
    const started = Date.now();
    expectCleanError(await client.getPet('1'), 'timeout');
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await server.streams['trickle-headers']?.closed)?.early).toBe(true);
  });

  it('an HTML error page is a server_error with a plain message; HTML with 200 is a bad_response', async () => {
    const html = hostileClient(server.base('html')).client;
    const error = expectCleanError(await html.listPets({ limit: 5 }), 'server_error');
    expect(error).toMatchObject({ status: 502 });
    expect(error.message).not.toContain('alert');
    expectCleanError(await hostileClient(server.base('html-200')).client.listPets({ limit: 5 }), 'bad_response');
  });

  it('an error body quoting the key never brings the key into the error', async () => {
    const { client } = hostileClient(server.base('echo-key'));
    const error = expectCleanError(await client.listPets({ limit: 5 }), 'unauthorized');
    expect(error.message).toContain('[hidden key]');
  });

  it('a redirect to another origin is not followed: the other origin gets nothing, least of all the key', async () => {
    server.redirectTo = other.base('record');
    const { client } = hostileClient(server.base('redirect'));
    expect(expectCleanError(await client.listPets({ limit: 5 }), 'bad_response').message).toBe(MESSAGES.redirect);
    const write = await client.createPet({ name: 'Rex', categoryId: '2' }, crypto.randomUUID());
    expectCleanError(write, 'bad_response');
    expect(server.requestsTo('redirect').map((r) => r.headers.authorization)).toEqual([
      `Bearer ${KEY}`,
      `Bearer ${KEY}`,
    ]);
    expect(other.requests.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
    expect(other.requests).toHaveLength(0);
  });
});
