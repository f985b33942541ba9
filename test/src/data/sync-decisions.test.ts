import { describe, expect, it } from 'vitest';
import { decideAfterSendError, retryDelay } from '../../../src/data/sync-decisions';
import { appError } from './test-helpers';

describe('decisions after a failed send', () => {
  it('backs off from 2 s, doubling, to at most 5 minutes', () => {
    expect([1, 2, 3, 4, 8, 9, 50].map(retryDelay)).toEqual([2000, 4000, 8000, 16000, 256000, 300000, 300000]);
  });

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
      expect(decideAfterSendError(appError(code), 2)).toEqual({ kind: 'retry', delayMs: 4000, unknownOutcome: true });
    }
    expect(decideAfterSendError(appError('teapot', 'x', { status: 502 }), 1)).toMatchObject({ unknownOutcome: true });
    for (const code of ['banned', 'gone', 'something_new']) {
      expect(decideAfterSendError(appError(code), 1)).toEqual({ kind: 'retry', delayMs: 2000, unknownOutcome: false });
    }
    expect(decideAfterSendError(appError('conflict', 'in flight', { status: 409 }), 3)).toEqual({
      kind: 'retry',
      delayMs: 8000,
      unknownOutcome: false,
    });
  });

  it('waits as long as Retry-After says for a rate limit, within bounds', () => {
    const limited = (retryAfterMs?: number) =>
      decideAfterSendError(appError('rate_limited', 'x', { status: 429, retryAfterMs }), 1);
    expect(limited(30_000)).toEqual({ kind: 'retry', delayMs: 30_000, unknownOutcome: false });
    expect(limited(0)).toMatchObject({ delayMs: 2000 });
    expect(limited(3_600_000)).toMatchObject({ delayMs: 300_000 });
    expect(limited(undefined)).toMatchObject({ delayMs: 2000 });
  });
});
