import { describe, expect, it } from 'vitest';
import { keyOutcome, KeyStatusTracker } from '../../../../electron/core/keys/key-status';
import type { EventPayload } from '../../../../src/shared/app-api/api';
import { err, ok } from '../../../../src/shared/app-api/result';

function tracker(saved: boolean | null = true) {
  const events: EventPayload<'key'>[] = [];
  let now = 10;
  const clock = { now: () => now, monotonic: () => now, setTimeout: () => 0, clearTimeout: () => {} };
  const keys = new KeyStatusTracker({ clock, emit: (p) => events.push(p), hasKey: async () => saved });
  return { keys, events, tick: (to: number) => (now = to) };
}

describe('keyOutcome', () => {
  it('reads a 401 as refused, no key as none, any answer as accepted, and nothing else', () => {
    expect(keyOutcome(ok({ animals: [] }))).toBe('accepted');
    expect(keyOutcome(err('unauthorized', 'no', { status: 401 }))).toBe('refused');
    expect(keyOutcome(err('no_key', 'none'))).toBe('none');
    expect(keyOutcome(ok({ result: 'invalid', message: 'refused' }))).toBe('refused');
    expect(keyOutcome(ok({ result: 'valid', message: 'fine' }))).toBe('accepted');
    for (const result of [
      ok({ result: 'unreachable', message: '' }),
      err('offline', 'down'),
      err('rate_limited', 'slow', { status: 429 }),
      err('not_configured', 'no address'),
    ]) {
      expect(keyOutcome(result)).toBeNull();
    }
  });
});

describe('KeyStatusTracker', () => {
  it('starts from the keychain, then follows calls, reporting changes only', async () => {
    const { keys, events } = tracker(true);
    expect(await keys.status('a')).toEqual({ profileId: 'a', state: 'saved', at: 10 });
    keys.observe('a', ok({ animals: [] }), keys.ticket('a'));
    keys.observe('a', ok({ animals: [] }), keys.ticket('a'));
    keys.observe('a', err('offline', 'down'), keys.ticket('a'));
    keys.observe('a', err('unauthorized', 'no', { status: 401 }), keys.ticket('a'));
    expect(events.map((e) => e.state)).toEqual(['accepted', 'refused']);
    expect((await keys.status('a')).state).toBe('refused');
  });

  it('ignores the outcome of a call made with the key that was replaced or removed meanwhile', async () => {
    const { keys, events, tick } = tracker(false);
    expect((await keys.status('a')).state).toBe('none');
    const before = keys.ticket('a');
    tick(20);
    keys.saved('a');
    keys.observe('a', err('unauthorized', 'old key', { status: 401 }), before);
    expect(await keys.status('a')).toEqual({ profileId: 'a', state: 'saved', at: 20 });
    keys.observe('a', ok({ animals: [] }), keys.ticket('a'));
    const during = keys.ticket('a');
    keys.removed('a');
    keys.observe('a', ok({ animals: [] }), during);
    expect(events.map((e) => e.state)).toEqual(['saved', 'accepted', 'none']);
  });

  it('saving again is reported even when a key was saved already; a removed profile starts over', async () => {
    const { keys, events } = tracker(null);
    keys.saved('a');
    keys.saved('a');
    expect(events.map((e) => e.state)).toEqual(['saved', 'saved']);
    keys.forget('a');
    // The keychain cannot tell: "none" is answered but not remembered.
    expect((await keys.status('a')).state).toBe('none');
  });
});
