import { describe, expect, it } from 'vitest';
import { decideAfterSendError, retryDelay } from '../../../src/sync/sync-decisions';
import { appError } from '../support/test-helpers';

const ceiling = () => 0;

describe('backoff', () => {
  it('backs off from 2 s, doubling, to at most 5 minutes', () => {
    const delays = [1, 2, 3, 4, 8, 9, 50].map((n) => retryDelay(n, ceiling));
    expect(delays).toEqual([2000, 4000, 8000, 16000, 256000, 300000, 300000]);
  });

  it('draws each wait between half the ceiling and the ceiling (jitter)', () => {
    expect(retryDelay(3, () => 0.5)).toBe(6000);
    expect(retryDelay(3, () => 0.999)).toBe(4004);
    expect(retryDelay(50, () => 0.999)).toBe(150150);
    const draws = Array.from({ length: 200 }, () => retryDelay(4));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(8000);
    expect(Math.max(...draws)).toBeLessThanOrEqual(16000);
    expect(new Set(draws).size).toBeGreaterThan(100);
  });
});

describe('decisions after a failed send', () => {
  it('pauses the profile for a refused, missing or unconfigured key', () => {
    expect(decideAfterSendError(appError('unauthorized', 'x', { status: 401 }), 1)).toEqual({
      kind: 'pause',
      reason: 'unauthorized',
    });
    expect(decideAfterSendError(appError('no_key'), 1)).toEqual({ kind: 'pause', reason: 'no_key' });
    expect(decideAfterSendError(appError('not_configured'), 1)).toEqual({ kind: 'pause', reason: 'not_configured' });
  });

  it('sets aside what the service refused, and unknown 4xx answers', () => {
    expect(decideAfterSendError(appError('invalid', 'name is required', { status: 400 }), 1).kind).toBe(
      'needs_attention',
    );
    expect(decideAfterSendError(appError('unprocessable', 'key reused', { status: 422 }), 1).kind).toBe(
      'needs_attention',
    );
  });

  it('retries network trouble with an unknown outcome, and other failures with a known one', () => {
    for (const code of ['offline', 'timeout', 'server_error', 'bad_response', 'cancelled']) {
      expect(decideAfterSendError(appError(code), 2, ceiling)).toEqual({
        kind: 'retry',
        delayMs: 4000,
        unknownOutcome: true,
      });
    }
    expect(decideAfterSendError(appError('teapot', 'x', { status: 502 }), 1)).toMatchObject({ unknownOutcome: true });
    for (const code of ['banned', 'gone', 'something_new']) {
      expect(decideAfterSendError(appError(code), 1, ceiling)).toEqual({
        kind: 'retry',
        delayMs: 2000,
        unknownOutcome: false,
      });
    }
    expect(decideAfterSendError(appError('conflict', 'in flight', { status: 409 }), 3, ceiling)).toEqual({
      kind: 'retry',
      delayMs: 8000,
      unknownOutcome: false,
    });
  });

  it('knows the outcome of a failure that proves the request never left', () => {
    const refused = appError('offline', 'refused', { notSent: true });
    expect(decideAfterSendError(refused, 1, ceiling)).toEqual({ kind: 'retry', delayMs: 2000, unknownOutcome: false });
  });

  it('keeps an entry the proxy refused for want of a login, to try again: nothing reached the service', () => {
    const login = appError('proxy_auth', 'The proxy at p:3128 asks for a login.', { notSent: true, proxy: 'p:3128' });
    expect(decideAfterSendError(login, 2, ceiling)).toEqual({ kind: 'retry', delayMs: 4000, unknownOutcome: false });
  });

  it('waits as long as Retry-After says for a rate limit, within bounds', () => {
    const limited = (retryAfterMs?: number) =>
      decideAfterSendError(appError('rate_limited', 'x', { status: 429, retryAfterMs }), 1, ceiling);
    expect(limited(30_000)).toEqual({ kind: 'retry', delayMs: 30_000, unknownOutcome: false });
    expect(limited(0)).toMatchObject({ delayMs: 2000 });
    expect(limited(3_600_000)).toMatchObject({ delayMs: 300_000 });
    expect(limited(undefined)).toMatchObject({ delayMs: 2000 });
  });
});
