/**
 * The engine's waits when the computer's clock is set back or forward during them (NTP at an
 * event, staff fixing the time): a wait lasts its real length, measured in elapsed time, never
 * the jump (docs/simulation.md, the 10,000-day run: a queue held 4 hours after the clocks were
 * set back 14,400 s in all).
 */
import { describe, expect, it } from 'vitest';
import { SEND_SETTLES_MS } from '../../../src/shared/app-api/api';
import { err } from '../../../src/shared/app-api/result';
import { KEYS_TRUSTED_MS, keysTrusted } from '../../../src/sync/idempotency-evidence';
import { entriesOf, newAnimal } from '../support/test-helpers';
import { engineOnFakeClock } from '../support/engine-on-fake-clock';

const HOUR = 3_600_000;

function setup() {
  const { clock, api, engine, outbox, profileId } = engineOnFakeClock();
  /** Lets `ms` of real time pass, in steps, letting the engine's passes finish between them. */
  const pass = async (ms: number, step = 100) => {
    for (let done = 0; done < ms; done += step) {
      clock.advance(Math.min(step, ms - done));
      await engine.whenIdle();
    }
  };
  return { clock, api, engine, outbox, profileId, pass };
}

describe('a retry wait when the clock jumps', () => {
  it.each([
    ['set back an hour', -HOUR],
    ['set back four hours in three steps', -14_400_000],
  ])('the clock %s during the wait: the retry goes when the wait has really passed', async (_name, jump) => {
    const { clock, api, engine, outbox, pass } = setup();
    await outbox.enqueue(newAnimal('Bella', '1'));
    api.failCreate('offline', 'refused', { notSent: true }); // the first try fails: the backoff waits 2 s
    engine.run();
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    const failedAt = clock.monotonic();

    await pass(500);
    if (jump === -HOUR) clock.jump(jump);
    else for (const part of [-2_950_000, -5_670_000, -5_780_000]) clock.jump(part);
    await pass(1400);
    expect(api.createCalls).toHaveLength(1); // 1.9 s: not yet
    await pass(200);
    expect(api.createCalls).toHaveLength(2); // 2.1 s of real time: the retry went
    expect(clock.monotonic() - failedAt).toBeLessThan(2_200);
    expect(await entriesOf(outbox)).toMatchObject([{ state: 'sent' }]);
  });

  it('the clock set back before the wait is planned, then new work: nothing waits for the jump', async () => {
    const { clock, api, engine, outbox, profileId, pass } = setup();
    await outbox.enqueue(newAnimal('Bella', '1'));
    engine.run();
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    clock.jump(-14_400_000);
    await outbox.enqueue(newAnimal('Bella', '1'));
    api.failCreate('offline', 'refused', { notSent: true });
    engine.sendPending(profileId);
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(2);
    clock.jump(-HOUR); // set back again while it waits
    await pass(2_100);
    expect(api.createCalls).toHaveLength(3);
    expect((await entriesOf(outbox)).map((entry) => entry.state)).toEqual(['sent', 'sent']);
  });

  it('the clock set forward an hour during the wait: new work does not send the waiting entry early', async () => {
    const { clock, api, engine, outbox, profileId, pass } = setup();
    await outbox.enqueue(newAnimal('First'));
    api.failCreate('offline', 'refused', { notSent: true });
    engine.run();
    await engine.whenIdle();
    await pass(500);
    clock.jump(HOUR);
    await outbox.enqueue(newAnimal('Second'));
    engine.sendPending(profileId); // a pass: the head is not due for 1.5 s more, whatever the wall clock says
    await engine.whenIdle();
    expect(api.createCalls).toHaveLength(1);
    await pass(1_400);
    expect(api.createCalls).toHaveLength(1);
    await pass(200);
    expect(api.createCalls.map((call) => call.animal.name)).toEqual(['First', 'First', 'Second']);
  });

  it('shows staff the next try on the wall clock, as it reads after the jump', async () => {
    const { clock, api, engine, outbox, profileId, pass } = setup();
    await outbox.enqueue(newAnimal('Bella', '1'));
    api.failCreate('offline', 'refused', { notSent: true });
    engine.run();
    await engine.whenIdle();
    expect(engine.progress(profileId).nextAttemptAt).toBe(clock.now() + 2_000);
    await pass(500);
    clock.jump(-HOUR);
    // the panel says "retry in 2 s" from the wall clock: after the jump it would say an hour,
    // until the engine tells it again; its next pass (new work) does
    await outbox.enqueue(newAnimal('Other'));
    engine.sendPending(profileId);
    await engine.whenIdle();
    const next = engine.progress(profileId).nextAttemptAt;
    expect(next).not.toBeNull();
    expect(next! - clock.now()).toBeGreaterThan(1_000);
    expect(next! - clock.now()).toBeLessThanOrEqual(1_500);
  });
});

describe('the wait for a timed-out send to settle when the clock jumps', () => {
  it.each([
    ['set forward an hour', HOUR],
    ['set back an hour', -HOUR],
  ])('the clock %s after the timeout: the lists are read once the minute has really passed', async (_name, jump) => {
    const { clock, api, engine, outbox, pass } = setup();
    await outbox.enqueue(newAnimal('Bella', '1'));
    api.createAnswers.push(() => err('timeout', 'The service took too long to answer.'));
    engine.run();
    await engine.whenIdle();
    const gaveUpAt = clock.monotonic();
    clock.jump(jump);
    await pass(SEND_SETTLES_MS - 1_000, 1_000);
    expect(api.listCalls).toHaveLength(0); // a list read now proves nothing: the send may still land
    await pass(5_000, 1_000);
    expect(api.listCalls.length).toBeGreaterThan(0);
    expect(clock.monotonic() - gaveUpAt).toBeLessThanOrEqual(SEND_SETTLES_MS + 4_000);
  });
});

describe('the proof that the service keeps keys, when the clock was set back', () => {
  const evidence = { serviceUrl: 'https://service.example', how: 'a replayed creation', at: 0 };
  it('is relied on for a doubt younger than an hour, and not for one whose start the clock has not reached', () => {
    const now = Date.UTC(2030, 0, 15, 12);
    expect(keysTrusted(evidence, now - 10 * 60_000, now)).toBe(true);
    expect(keysTrusted(evidence, now - KEYS_TRUSTED_MS, now)).toBe(false);
    // the doubt began "later" than now: the clock was set back since, by an unknown amount (the
    // doubt may be a day old, past what a service keeps keys for): the lists are read instead
    expect(keysTrusted(evidence, now + 5 * 60_000, now)).toBe(false);
  });
});
