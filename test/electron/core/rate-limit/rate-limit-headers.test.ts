import { describe, expect, it } from 'vitest';
import { buildUrl } from '../../../../electron/core/http/url-join';
import {
  MAX_WAIT_MS,
  parseHttpDate,
  readRateLimit,
  readRetryAfter,
} from '../../../../electron/core/rate-limit/rate-limit-headers';
import { DiagnosticsLog } from '../../../../electron/core/service/diagnostics-log';
import { backoffCeiling, backoffDelay, REQUEST_BACKOFF } from '../../../../src/shared/basics/backoff';
import type { DiagnosticEntry } from '../../../../src/shared/app-api/diagnostics';

const NOW = Date.UTC(2030, 0, 15, 12, 0, 0);

describe('rate-limit headers', () => {
  it('reads limit, remaining and a unix reset, shifted by the skew', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '7',
      'X-RateLimit-Reset': String(NOW / 1000 + 30),
    });
    expect(readRateLimit(headers, NOW, 0)).toEqual({ limit: 60, remaining: 7, resetAt: NOW + 30_000, notices: [] });
    expect(readRateLimit(headers, NOW, 5000).resetAt).toBe(NOW + 25_000);
  });

  it('drops garbage counts with a notice and clamps a reset more than a day ahead', () => {
    const headers = new Headers({
      'X-RateLimit-Remaining': '-3',
      'X-RateLimit-Limit': 'lots',
      'X-RateLimit-Reset': String(NOW / 1000 + 10 * 86_400),
    });
    const reading = readRateLimit(headers, NOW, 0);
    expect(reading).toMatchObject({ limit: null, remaining: null, resetAt: NOW + MAX_WAIT_MS });
    expect(reading.notices).toHaveLength(3);
  });

  it('reads Retry-After as delta-seconds or as an HTTP-date', () => {
    expect(readRetryAfter('120', NOW, 0)).toEqual({ kind: 'wait', waitMs: 120_000, notice: null });
    const date = new Date(NOW + 45_000).toUTCString();
    expect(readRetryAfter(date, NOW, 0)).toEqual({ kind: 'wait', waitMs: 45_000, notice: null });
    expect(readRetryAfter(date, NOW, 15_000)).toMatchObject({ waitMs: 30_000 });
    expect(readRetryAfter(new Date(NOW - 5000).toUTCString(), NOW, 0)).toMatchObject({ waitMs: 0, notice: null });
    expect(readRetryAfter(null, NOW, 0)).toEqual({ kind: 'absent' });
  });

  it('clamps negative and huge Retry-After values and flags garbage, with notices', () => {
    expect(readRetryAfter('-10', NOW, 0)).toMatchObject({
      kind: 'wait',
      waitMs: 0,
      notice: expect.stringMatching(/negative/),
    });
    expect(readRetryAfter('172800', NOW, 0)).toMatchObject({
      waitMs: MAX_WAIT_MS,
      notice: expect.stringMatching(/day/),
    });
    expect(readRetryAfter('1.5', NOW, 0)).toMatchObject({ kind: 'unreadable' });
    expect(readRetryAfter('tomorrow', NOW, 0)).toMatchObject({ kind: 'unreadable' });
  });

  it('parses the three HTTP-date forms', () => {
    const ms = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(ms);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(ms);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(ms);
    expect(parseHttpDate('2030-01-01')).toBeNull();
  });
});

describe('backoff, URLs and the diagnostics log', () => {
  it('uses full jitter under an exponential ceiling capped at 60 s', () => {
    expect([0, 1, 2, 6, 7, 40].map((n) => backoffCeiling(n))).toEqual([1000, 2000, 4000, 60_000, 60_000, 60_000]);
    expect(backoffDelay(3, REQUEST_BACKOFF, () => 0.25)).toBe(2000);
    expect(backoffDelay(3, REQUEST_BACKOFF, () => 0)).toBe(0);
  });

  it('joins segments under the base path, encoded, refusing dot segments', () => {
    expect(buildUrl('https://h.example/v1', ['pets', '12']).href).toBe('https://h.example/v1/pets/12');
    expect(buildUrl('https://h.example/v1/', ['pets', 'a/b?c']).href).toBe('https://h.example/v1/pets/a%2Fb%3Fc');
    expect(() => buildUrl('https://h.example/v1', ['..'])).toThrow(RangeError);
  });

  it('keeps the last 200 entries, oldest first', () => {
    const log = new DiagnosticsLog();
    const entry = (at: number): DiagnosticEntry => ({
      at,
      profileId: 'p',
      method: 'GET',
      path: '/pets',
      status: 200,
      durationMs: 1,
      rateLimit: { limit: null, remaining: null, reset: null, retryAfter: null },
      idempotencyKey: null,
      outcome: 'ok',
    });
    for (let i = 0; i < 250; i += 1) log.add(entry(i));
    const entries = log.entries();
    expect(entries).toHaveLength(200);
    expect(entries[0]?.at).toBe(50);
    expect(entries.at(-1)?.at).toBe(249);
  });
});
