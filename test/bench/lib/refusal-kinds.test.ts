import { describe, expect, it } from 'vitest';
import type { RequestLogLine } from '../../service/index';
import { formatRefusalKinds, refusalKinds } from './refusal-kinds';

const T0 = Date.parse('2026-11-27T10:00:00.000Z');

/** One logged request of `device` (its creation `key`) at `ms` after the first, with the service's answer. */
function line(ms: number, key: string | null, status: number, remaining: number): RequestLogLine {
  return {
    time: new Date(T0 + ms).toISOString(),
    keyHash: 'abc',
    client: '127.0.0.1',
    method: 'POST',
    path: '/v1/pets',
    status,
    rateLimitLimit: 60,
    rateLimitRemaining: remaining,
    rateLimitReset: 0,
    retryAfter: status === 429 ? 9 : null,
    idempotencyKey: key,
    latencyMs: 1,
    toldToWait: false,
    fault: null,
    outcome: 'response',
    createdId: status === 201 ? `id-${ms}-${key}` : null,
  };
}

const deviceOf = new Map([
  ['a1', 0],
  ['a2', 0],
  ['a3', 0],
  ['b1', 1],
  ['b2', 1],
  ['b3', 1],
  ['c1', 2],
  ['c2', 2],
  ['d1', 3],
]);

describe('refusal kinds, from the service log alone (issue 34, thirteenth sitting)', () => {
  it('tells a blind first request, the opener, a close after a pause and the burst apart', () => {
    const lines = [
      line(0, 'a1', 201, 59), // device 0 takes the window's first value: the opener
      line(2, 'b1', 201, 58),
      line(3, 'c1', 201, 0),
      line(4, 'b2', 429, 0), // 2 ms after device 1's previous request: the burst ran past the end
      line(5, 'd1', 429, 0), // device 3's first request in the window: blind
      line(30, 'c2', 429, 0), // 27 ms after device 2's previous one: a close after a pause
      line(40, 'a2', 429, 0), // the opener's close
      line(41, 'zz', 429, 0), // nobody's we know
    ];
    expect(refusalKinds(lines, deviceOf, 10_000)).toEqual({ first: 1, opener: 1, paused: 1, burst: 1, unknown: 1 });
    expect(formatRefusalKinds(refusalKinds(lines, deviceOf, 10_000))).toBe('1/1/1/1 +1?');
  });

  it('counts windows from the key’s first request: a refusal at the next window’s start is a first request again', () => {
    const lines = [
      line(0, 'a1', 201, 59),
      line(9_990, 'b1', 201, 0),
      line(10_001, 'a2', 201, 59), // window 1: device 0 opens it again
      line(10_003, 'b2', 201, 0),
      line(10_004, 'b3', 429, 0), // 1 ms after device 1's previous request in window 1: burst, not paused
      line(10_006, 'c1', 429, 0), // device 2's first in window 1
      line(10_050, 'a3', 429, 0), // the opener of window 1
    ];
    expect(refusalKinds(lines, deviceOf, 10_000)).toEqual({ first: 1, opener: 1, paused: 0, burst: 1, unknown: 0 });
  });

  it('finds nothing in an empty log or one without refusals', () => {
    expect(refusalKinds([], deviceOf, 10_000)).toEqual({ first: 0, opener: 0, paused: 0, burst: 0, unknown: 0 });
    expect(formatRefusalKinds(refusalKinds([line(0, 'a1', 201, 59)], deviceOf, 10_000))).toBe('0/0/0/0');
  });
});
