import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limits';

const plan = { name: 'enterprise', perMinute: 2, perDay: 5 };
const limiter = () => new RateLimiter({ minuteMs: 1000, dayMs: 10_000, banAfter: 1, banMs: 3000 });

describe('RateLimiter (pure, fake time)', () => {
  it('aligns windows from the first request and resets them on their boundary', () => {
    const rl = limiter();
    expect(rl.check('a', plan, 500).headers).toEqual({ limit: 2, remaining: 1, reset: 2 });
    expect(rl.check('a', plan, 1400).kind).toBe('allowed');
    const refused = rl.check('a', plan, 1450);
    expect(refused).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 1, toldToWait: false });
    // told to wait until 2450 (whole seconds), although the window resets at 1500
    expect(rl.check('a', plan, 2000)).toMatchObject({ kind: 'rate_limited', toldToWait: true });
    expect(rl.check('a', plan, 2450)).toMatchObject({ kind: 'allowed', headers: { remaining: 1 } });
  });

  it('switches the headers to the day window when it has fewer left, and waits for the day reset', () => {
    const rl = limiter();
    for (let t = 0; t < 4; t += 1) rl.check('a', plan, t * 1000);
    expect(rl.check('a', plan, 4000).headers).toEqual({ limit: 5, remaining: 0, reset: 10 });
    expect(rl.check('a', plan, 5000)).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 5 });
    expect(rl.check('a', plan, 10_000)).toMatchObject({ kind: 'allowed' });
  });

  it('bans after more than banAfter requests during a wait, then starts afresh', () => {
    const rl = limiter();
    rl.check('a', plan, 0);
    rl.check('a', plan, 0);
    expect(rl.check('a', plan, 10).kind).toBe('rate_limited');
    expect(rl.check('a', plan, 20).kind).toBe('rate_limited');
    expect(rl.check('a', plan, 30)).toMatchObject({ kind: 'banned', retryAfterSeconds: 3 });
    expect(rl.check('a', plan, 2100)).toMatchObject({ kind: 'banned', retryAfterSeconds: 1 });
    expect(rl.check('b', plan, 2100).kind).toBe('allowed');
    expect(rl.check('a', plan, 3030)).toMatchObject({ kind: 'allowed', toldToWait: false });
  });
});
