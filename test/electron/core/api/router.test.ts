import { describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../../../../electron/core/api/event-bus';
import { createRouter, type Handlers, serveChannels } from '../../../../electron/core/api/router';
import { Scrubber } from '../../../../electron/core/keys/scrub';
import { type Channel, CHANNELS } from '../../../../src/shared/app-api/api';
import { err, ok, type Result } from '../../../../src/shared/app-api/result';

const PROFILE = {
  id: 'local',
  name: 'Local demo',
  baseUrl: 'http://127.0.0.1:4010/v1',
  color: 'green',
  kind: 'demo',
  builtIn: true,
} as const;
const ANIMAL = { id: '1', name: 'Biscuit', categoryId: '2', status: 'available' } as const;
const SNAPSHOT = {
  profileId: 'local',
  limit: 60,
  remaining: 59,
  resetAt: 1,
  pausedUntil: null,
  pauseReason: null,
  dailyExhausted: false,
  probing: false,
  queued: { reads: 0, writes: 0 },
  inFlight: 0,
  pacing: null,
  heldUntil: null,
  devices: 1,
  notice: null,
};

/** One valid input and the output a handler gives for it, per channel. */
const VALID: { [C in Channel]: { input: unknown; output: unknown } } = {
  listPets: {
    input: { profileId: 'local', query: { limit: 5, status: 'available' } },
    output: { animals: [ANIMAL], fetchedAt: 1 },
  },
  getPet: {
    input: { profileId: 'local', id: '1' },
    output: { animal: ANIMAL, fetchedAt: 1, deprecation: { deprecation: null, sunset: null } },
  },
  createPet: {
    input: {
      profileId: 'local',
      animal: { name: 'Rex', categoryId: '3' },
      idempotencyKey: '4b3f2a7e-3c1d-4e5f-9a8b-7c6d5e4f3a2b',
    },
    output: { animal: ANIMAL, fetchedAt: 1 },
  },
  keepEntries: {
    input: {
      profileId: 'local',
      batch: '7d9b1c3e-1f2a-4b5c-8d6e-0a1b2c3d4e5f',
      complete: true,
      entries: [
        {
          localId: '1a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d',
          idempotencyKey: '4b3f2a7e-3c1d-4e5f-9a8b-7c6d5e4f3a2b',
          animal: { name: 'Rex', categoryId: '3' },
          createdAt: 1,
        },
      ],
    },
    output: { kept: 1 },
  },
  settleEntry: {
    input: { profileId: 'local', localId: '1a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d', outcome: 'acknowledged', id: '7' },
    output: { settled: true },
  },
  safetyCopy: { input: { profileId: 'local' }, output: { entries: [], problems: [] } },
  updateStatus: { input: {}, output: { state: 'off', reason: 'Updates come with the installed desktop app.' } },
  ordersRaw: { input: { profileId: 'local' }, output: { body: [], fetchedAt: 1 } },
  listProfiles: { input: {}, output: { profiles: [PROFILE], notice: null } },
  saveProfile: { input: { name: 'Mine', baseUrl: 'https://api.example.org/v1', color: 'blue' }, output: PROFILE },
  removeProfile: { input: { profileId: 'mine' }, output: { removed: true } },
  setKey: { input: { profileId: 'local', key: 'demo-key-123' }, output: { saved: true } },
  clearKey: { input: { profileId: 'local' }, output: { cleared: true } },
  hasKey: { input: { profileId: 'local' }, output: { hasKey: true } },
  keyStatus: { input: { profileId: 'local' }, output: { profileId: 'local', state: 'accepted', at: 1 } },
  testKey: { input: { profileId: 'local' }, output: { result: 'valid', message: 'The key works.' } },
  governorSnapshot: { input: { profileId: 'local' }, output: SNAPSHOT },
  diagnostics: { input: {}, output: { entries: [] } },
  proxyLogins: { input: {}, output: { logins: [{ proxy: 'proxy.corp:3128', username: 'shelter' }], asked: [] } },
  setProxyLogin: {
    input: { proxy: 'proxy.corp:3128', username: 'shelter', password: 'secret-pass' },
    output: { saved: true },
  },
  clearProxyLogin: { input: { proxy: 'proxy.corp:3128' }, output: { cleared: true } },
  systemLanguages: { input: {}, output: { languages: ['es-MX', 'en-US'] } },
  useLanguage: { input: { language: 'es' }, output: { language: 'es' } },
};

/** Kinds of invalid input every channel must refuse (channels without fields refuse the non-objects). */
const NOT_OBJECTS: unknown[] = [null, 'text', 42, [], true];
const INVALID_FIELDS: { [C in Channel]: unknown[] } = {
  listPets: [
    { profileId: 'local' },
    { profileId: 'Bad Id', query: {} },
    { profileId: 'local', query: { limit: 0 } },
    { profileId: 'local', query: { limit: 1.5 } },
    { profileId: 'local', query: { status: 'lost' } },
  ],
  getPet: [
    { profileId: 'local' },
    { profileId: 'local', id: 'abc' },
    { profileId: 'local', id: 1 },
    { profileId: 'local', id: '99999999999999999999' },
  ],
  createPet: [
    { profileId: 'local', animal: { name: 'Rex', categoryId: '3' } },
    {
      profileId: 'local',
      animal: { name: '', categoryId: '3' },
      idempotencyKey: '4b3f2a7e-3c1d-4e5f-9a8b-7c6d5e4f3a2b',
    },
    { profileId: 'local', animal: { name: 'Rex' }, idempotencyKey: '4b3f2a7e-3c1d-4e5f-9a8b-7c6d5e4f3a2b' },
    { profileId: 'local', animal: { name: 'Rex', categoryId: '3' }, idempotencyKey: 'not-a-uuid' },
  ],
  keepEntries: [
    { profileId: 'local', batch: '7d9b1c3e-1f2a-4b5c-8d6e-0a1b2c3d4e5f', complete: true, entries: [] },
    {
      profileId: 'local',
      batch: 'not-a-uuid',
      complete: true,
      entries: [{ localId: 'x', idempotencyKey: 'y', animal: { name: 'Rex', categoryId: '3' }, createdAt: 1 }],
    },
  ],
  settleEntry: [
    { profileId: 'local', localId: '1a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d', outcome: 'acknowledged' },
    { profileId: 'local', localId: '1a2b3c4d-5e6f-4a1b-9c2d-3e4f5a6b7c8d', outcome: 'lost' },
  ],
  safetyCopy: [{}, { profileId: 'Bad Id' }],
  updateStatus: [],
  ordersRaw: [{}, { profileId: 7 }],
  listProfiles: [],
  saveProfile: [
    { name: 'x', baseUrl: 'http://evil.example.org/v1', color: 'blue' },
    { name: '', baseUrl: 'https://a.org/v1', color: 'blue' },
    { name: 'x', baseUrl: 'https://a.org/v1', color: 'pink' },
  ],
  removeProfile: [{}, { profileId: '-x' }],
  setKey: [
    { profileId: 'local' },
    { profileId: 'local', key: '' },
    { profileId: 'local', key: 'has space' },
    { profileId: 'local', key: 'x'.repeat(5000) },
  ],
  clearKey: [{}, { profileId: '' }],
  hasKey: [{}, { profileId: null }],
  keyStatus: [{}, { profileId: 'Bad Id' }],
  testKey: [{}, { profileId: 'UPPER' }],
  governorSnapshot: [{}, { profileId: ['local'] }],
  diagnostics: [],
  proxyLogins: [],
  setProxyLogin: [
    { proxy: 'proxy.corp', username: 'a', password: 'b' },
    { proxy: 'proxy.corp:3128', username: 'a:b', password: 'c' },
    { proxy: 'proxy.corp:3128', username: 'a', password: '' },
  ],
  clearProxyLogin: [{}, { proxy: 'no port' }],
  systemLanguages: [],
  useLanguage: [{}, { language: 'fr' }, { language: 'system' }],
};

function fakeHandlers(
  answer: (channel: Channel, args: unknown) => Promise<Result<unknown>>,
): Handlers & { calls: [Channel, unknown][] } {
  const calls: [Channel, unknown][] = [];
  const handlers = Object.fromEntries(
    CHANNELS.map((channel) => [
      channel,
      (args: unknown) => {
        calls.push([channel, args]);
        return answer(channel, args);
      },
    ]),
  ) as unknown as Handlers;
  return Object.assign(handlers, { calls });
}

const okHandlers = () => fakeHandlers(async (channel) => ok(VALID[channel].output));

describe('router', () => {
  it.each(CHANNELS)('%s: valid input reaches the handler parsed and its result comes back', async (channel) => {
    const handlers = okHandlers();
    const router = createRouter(handlers);
    const result = await router.handle(channel, VALID[channel].input);
    expect(result).toEqual({ ok: true, data: VALID[channel].output });
    expect(handlers.calls).toHaveLength(1);
    expect(handlers.calls[0]?.[0]).toBe(channel);
  });

  it('hands the handler the parsed input (defaults applied, extra fields stripped)', async () => {
    const handlers = okHandlers();
    await createRouter(handlers).handle('listPets', { profileId: 'local', query: {}, extra: 'dropped' });
    expect(handlers.calls[0]?.[1]).toEqual({ profileId: 'local', query: { limit: 20 } });
  });

  it.each(CHANNELS)(
    '%s: every kind of invalid input is refused with invalid_request, the handler never called',
    async (channel) => {
      const handlers = okHandlers();
      const router = createRouter(handlers);
      const invalid = [...INVALID_FIELDS[channel], ...NOT_OBJECTS];
      for (const input of invalid) {
        const result = await router.handle(channel, input);
        expect(result.ok, `${channel} accepted ${JSON.stringify(input)}`).toBe(false);
        if (!result.ok) {
          expect(result.error.code).toBe('invalid_request');
          expect(result.error.message).toMatch(new RegExp(`^Invalid ${channel} request: .+`));
        }
      }
      expect(handlers.calls).toEqual([]);
    },
  );

  it('treats a missing input like {} (IPC and the browser client then behave the same)', async () => {
    const router = createRouter(okHandlers());
    expect((await router.handle('diagnostics', undefined)).ok).toBe(true);
    expect(await router.handle('hasKey', undefined)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('names the failing paths and messages in the error', async () => {
    const result = await createRouter(okHandlers()).handle('listPets', { profileId: 'local', query: { limit: 500 } });
    expect(result).toMatchObject({
      ok: false,
      error: { message: 'Invalid listPets request: query.limit: limit must be at most 100.' },
    });
  });

  it('never echoes the input values, so a rejected API key does not leak', async () => {
    const secret = 'super secret key with spaces';
    const result = await createRouter(okHandlers()).handle('setKey', { profileId: 'local', key: secret });
    expect(result.ok).toBe(false);
    expect(JSON.stringify(result)).not.toContain('super secret');
  });

  it.each(['nope', '', '__proto__', 'constructor', 'toString', 42, null])(
    'refuses an unknown channel %j',
    async (channel) => {
      const result = await createRouter(okHandlers()).handle(channel as string, {});
      expect(result).toEqual(err('invalid_request', 'Unknown channel.'));
    },
  );

  it.each(CHANNELS)('%s: a service failure is passed through as the error value', async (channel) => {
    const failure = err('rate_limited', 'Slow down.', { retryAfterMs: 1000, status: 429 });
    const router = createRouter(fakeHandlers(async () => failure));
    expect(await router.handle(channel, VALID[channel].input)).toEqual(failure);
  });

  it.each(CHANNELS)(
    '%s: a handler that throws or rejects becomes internal, logged without the payload',
    async (channel) => {
      const logError = vi.fn();
      const throwing = fakeHandlers(() => {
        throw new Error('boom');
      });
      const rejecting = fakeHandlers(() => Promise.reject(new TypeError('bad')));
      for (const handlers of [throwing, rejecting]) {
        const result = await createRouter(handlers, { logError }).handle(channel, VALID[channel].input);
        expect(result).toEqual(err('internal', 'Something went wrong in the app core.'));
      }
      expect(logError).toHaveBeenCalledTimes(2);
      expect(logError.mock.calls.join(' ')).toContain(`${channel} failed`);
      expect(logError.mock.calls.join(' ')).not.toContain('demo-key-123');
    },
  );

  it('a handler that answers something other than a result becomes internal', async () => {
    const logError = vi.fn();
    const router = createRouter(
      fakeHandlers(async () => 'oops' as unknown as Result<unknown>),
      { logError },
    );
    expect(await router.handle('hasKey', { profileId: 'local' })).toEqual(
      err('internal', 'Something went wrong in the app core.'),
    );
    expect(logError).toHaveBeenCalledOnce();
  });

  it('withholds an answer whose API key, once hidden, leaves it no longer what the contract says', async () => {
    // Found by fuzzing the host API: a key equal to an idempotency key the journal held.
    const key = '6293e549-a0b2-4f4b-968b-9e87dd05ee0c';
    const scrubber = new Scrubber();
    scrubber.remember(key);
    const logError = vi.fn();
    const entry = {
      localId: '7845ac99-f68c-4100-8d4a-6a0d2b85c7ce',
      idempotencyKey: key,
      animal: { name: 'Fuzz', categoryId: '1' },
      createdAt: 1,
      doubtSince: null,
    };
    const router = createRouter(
      fakeHandlers(async () => ok({ entries: [entry], problems: [] })),
      { logError, scrubber },
    );
    expect(await router.handle('safetyCopy', { profileId: 'local' })).toEqual(
      err('withheld', 'The answer held an API key where it did not belong, so it was withheld.'),
    );
    expect(logError.mock.calls.join(' ')).not.toContain(key);
    // Hidden inside text the contract allows (an animal's name): the answer goes, without the key.
    const other = new Scrubber();
    other.remember('sk-live-abcdefghijklmnop');
    const named = createRouter(
      fakeHandlers(async () =>
        ok({
          entries: [{ ...entry, animal: { name: 'Fuzz sk-live-abcdefghijklmnop', categoryId: '1' } }],
          problems: [],
        }),
      ),
      { logError, scrubber: other },
    );
    const answer = await named.handle('safetyCopy', { profileId: 'local' });
    expect(answer.ok).toBe(true);
    expect(JSON.stringify(answer)).not.toContain('sk-live-abcdefghijklmnop');
  });

  it('a throwing getter on the input does not cross the boundary', async () => {
    const input = Object.defineProperty({}, 'profileId', {
      enumerable: true,
      get: () => {
        throw new Error('trap');
      },
    });
    const result = await createRouter(okHandlers(), { logError: () => {} }).handle('hasKey', input);
    expect(result.ok).toBe(false);
  });
});

describe('event bus', () => {
  it('delivers events in order to every subscriber until it unsubscribes', () => {
    const bus = createEventBus();
    const seen: string[] = [];
    const off = bus.subscribe((event, payload) => seen.push(`${event}:${JSON.stringify(payload)}`));
    bus.emit('connectivity', { profileId: 'local', online: false, at: 1 });
    bus.emit('governor', SNAPSHOT);
    off();
    bus.emit('connectivity', { profileId: 'local', online: true, at: 2 });
    expect(seen).toEqual([
      `connectivity:${JSON.stringify({ profileId: 'local', online: false, at: 1 })}`,
      `governor:${JSON.stringify(SNAPSHOT)}`,
    ]);
  });

  it('a throwing listener does not stop the others', () => {
    const onError = vi.fn();
    const bus = createEventBus(onError);
    const second = vi.fn();
    bus.subscribe(() => {
      throw new Error('listener broke');
    });
    bus.subscribe(second);
    bus.emit('profiles', { profiles: [], notice: null });
    expect(second).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledOnce();
  });
});

describe('serveChannels', () => {
  const served = () => {
    const { calls, listPets, hasKey, ...rest } = okHandlers();
    return { calls, listPets, hasKey, rest };
  };

  it("merges the subsystems' handlers into one router that serves every channel", async () => {
    const { calls, listPets, hasKey, rest } = served();
    const router = createRouter(serveChannels({ listPets }, { hasKey }, rest));
    for (const channel of CHANNELS) {
      expect(await router.handle(channel, VALID[channel].input)).toEqual({ ok: true, data: VALID[channel].output });
    }
    expect(calls.map(([channel]) => channel)).toEqual(CHANNELS);
  });

  it('a channel served twice, or by none, does not compile and throws', () => {
    const { listPets, hasKey, rest } = served();
    // @ts-expect-error listPets is served twice: the merge is no Handlers
    expect(() => createRouter(serveChannels({ listPets }, { hasKey, listPets }, rest))).toThrow(
      'the listPets channel is served twice',
    );
    // @ts-expect-error no part serves hasKey
    expect(() => createRouter(serveChannels({ listPets }, rest))).toThrow('no handler serves hasKey');
  });
});
