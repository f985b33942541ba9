/**
 * The engine's waits (issue 14, data safety 6), on a fake clock: a doubt whose check keeps
 * failing offline backs off exponentially with jitter (it used to poll every 2 s), and an
 * "online" event may cut a wait short but never starts more than one pass.
 */
import { describe, expect, it } from 'vitest';
import { err } from '../../../src/shared/app-api/result';
import { entriesOf, newAnimal } from '../support/test-helpers';
import { engineOnFakeClock } from '../support/engine-on-fake-clock';

function setup(random = () => 0) {
  const { clock, api, engine, outbox, profileId } = engineOnFakeClock(random);
  /** The next wait, in ms from now (the engine keeps exactly one timer while it waits). */
  const nextWait = () => {
    const timers = clock.pendingTimers();
    expect(timers).toHaveLength(1);
    return (timers[0] ?? 0) - clock.now();
  };
  return { clock, api, engine, outbox, profileId, nextWait };
}

describe('reconciliation backoff', () => {
  it('backs off exponentially, with jitter, while the check of a doubt keeps failing offline', async () => {
    const { clock, api, engine, outbox, nextWait } = setup(() => 0.5);
    await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    api.failCreate('server_error', 'Internal error.', { status: 500 }); // the outcome is unknown: a doubt
    api.listPets = async (input) => {
      api.listCalls.push(input);
      return err('offline', 'The service could not be reached.');
    };
    engine.run();
    await engine.whenIdle();
    const waits: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const wait = nextWait();
      waits.push(wait);
      clock.advance(wait);
      await engine.whenIdle();
    }
    // Ceilings 2, 4, 8, 16, 32, 64 s; jitter 0.5 draws three quarters of each.
    expect(waits).toEqual([1500, 3000, 6000, 12000, 24000, 48000]);
    expect(api.createCalls).toHaveLength(1); // nothing resent while the doubt stands
    expect(api.listCalls).toHaveLength(6);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'queued', failures: 7, lastError: { code: 'offline' } }]);
  });
});

describe('online events and the single-pass rule', () => {
  it('an online event cuts a wait short once per backoff step; more events start nothing', async () => {
    const { clock, api, engine, outbox, profileId, nextWait } = setup();
    await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    for (let i = 0; i < 3; i += 1) api.failCreate('offline', 'refused', { notSent: true });
    engine.run();
    await engine.whenIdle();
    expect(nextWait()).toBe(2000);

    engine.retryEarly(profileId);
    engine.retryEarly(profileId);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(2); // one early try, not two
    expect(nextWait()).toBe(4000); // it counted: the next wait doubled
    engine.retryEarly(profileId); // this step's early try is used: a flapping connection gets no more
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(2);

    clock.advance(4000); // the try the backoff planned
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(3);
    expect(nextWait()).toBe(8000);
    engine.retryEarly(profileId); // a new step: one early try again
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(4);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent' }]);
  });

  it('an online event during a running pass starts no second pass', async () => {
    const { api, engine, outbox, profileId } = setup();
    await outbox.enqueue(newAnimal('Rex', '2', 'available'));
    let answer = () => undefined as void;
    let reached = () => undefined as void;
    const atSend = new Promise<void>((resolve) => (reached = resolve));
    api.createAnswers.push(() => {
      reached();
      return new Promise<void>((resolve) => (answer = resolve)).then(() =>
        err('offline', 'refused', { notSent: true }),
      );
    });
    engine.run();
    await atSend;
    for (let i = 0; i < 5; i += 1) engine.retryEarly(profileId);
    answer();
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'queued', failures: 1 }]);
  });

  it('keeps a wait the service asked for (429) even when an online event comes', async () => {
    const { api, engine, outbox, profileId, nextWait } = setup();
    await outbox.enqueue(newAnimal('Rex'));
    api.failCreate('rate_limited', 'slow down', { status: 429, retryAfterMs: 30_000 });
    engine.run();
    await engine.whenIdle();
    engine.retryEarly(profileId);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    expect(nextWait()).toBe(30_000);
  });

  it('new work does not cut a retry wait short: it queues behind it in order', async () => {
    const { clock, api, engine, outbox, profileId, nextWait } = setup();
    await outbox.enqueue(newAnimal('First'));
    api.failCreate('offline', 'refused', { notSent: true });
    engine.run();
    await engine.whenIdle();
    await outbox.enqueue(newAnimal('Second'));
    engine.sendPending(profileId);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    clock.advance(nextWait());
    await engine.whenIdle();
    expect(api.createCalls.map((c) => c.animal.name)).toEqual(['First', 'First', 'Second']);
  });
});

describe('an entry whose earlier send may still be stored by the service', () => {
  it('waits alone: the entries after it are sent, nothing reads as a failure, and it is neither looked for nor sent early', async () => {
    // A window closed while the core sent Rex; the core then gave up waiting (a timeout) and the
    // service may still store it. The window that took over finds Rex cut off mid-send, and the
    // core answers its send `settling`: Rex waits that long, the others go on (the simulator's day
    // 363; c0b75b1 answered a timeout instead, and the whole queue stopped as "Offline").
    const { clock, api, engine, outbox, profileId, nextWait } = setup();
    const [rex, bella, max] = await outbox.enqueueMany([
      newAnimal('Rex', '2', 'available'),
      newAnimal('Bella', '1', 'available'),
      newAnimal('Max', '3', 'available'),
    ]);
    await outbox.markSending(rex!.localId);
    api.createAnswers.push((input) => {
      expect(input.idempotencyKey).toBe(rex!.idempotencyKey);
      return err('settling', 'An earlier send may still be stored.', { retryAfterMs: 45_000, notSent: true });
    });
    engine.run();
    await engine.whenIdle();
    const heldAt = clock.now();

    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['Rex', 'Bella', 'Max']);
    const [rexNow, bellaNow, maxNow] = await entriesOf(outbox);
    expect(rexNow).toMatchObject({
      localId: rex!.localId,
      state: 'queued',
      lastError: { code: 'settling' },
      nextAttemptAt: heldAt + 45_000,
      failures: 0,
    });
    expect(rexNow!.doubtSince).not.toBeNull();
    expect([bellaNow, maxNow]).toMatchObject([
      { localId: bella!.localId, state: 'sent' },
      { localId: max!.localId, state: 'sent' },
    ]);
    // Not a failure: no "did not go through", no pause; the drain stays open for Rex.
    expect(engine.progress(profileId)).toMatchObject({
      lastError: null,
      pausedFor: null,
      active: true,
      total: 3,
      sent: 2,
      nextAttemptAt: heldAt + 45_000,
    });
    expect(nextWait()).toBe(45_000);

    // An "online" event, new work: neither tries Rex before its time.
    const listsBefore = api.listCalls.length;
    engine.retryEarly(profileId);
    await engine.whenIdle();
    engine.sendPending(profileId);
    await engine.whenIdle();
    clock.advance(44_000);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(3);
    expect(api.listCalls).toHaveLength(listsBefore);

    // Its time come, Rex is looked for (still in doubt) and, found nowhere, sent.
    clock.advance(1_000);
    await engine.whenIdle();
    expect(api.listCalls.length).toBeGreaterThan(listsBefore);
    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['Rex', 'Bella', 'Max', 'Rex']);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent' }, { state: 'sent' }, { state: 'sent' }]);
  });

  it('waits alone after its own timeout too: the next entry goes before the minute is over', async () => {
    const { clock, api, engine, outbox, profileId } = setup();
    await outbox.enqueueMany([newAnimal('Rex', '2', 'available'), newAnimal('Bella', '1', 'available')]);
    api.failCreate('timeout', 'The service took too long to answer.');
    engine.run();
    await engine.whenIdle();
    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['Rex']);
    clock.advance(2_000); // the backoff: Rex is found in doubt, and waits out the minute
    await engine.whenIdle();
    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['Rex', 'Bella']);
    expect(api.listCalls).toHaveLength(0);
    expect(await entriesOf(outbox)).toMatchObject([
      { state: 'queued', lastError: { code: 'settling' } },
      { state: 'sent' },
    ]);
    expect(engine.progress(profileId)).toMatchObject({ lastError: null, pausedFor: null });
  });
});
