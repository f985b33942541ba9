import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { MeterView } from '../../../src/diagnostics/governor.svelte';
import RateMeter from '../../../src/diagnostics/RateMeter.svelte';

const base: MeterView = {
  state: 'window',
  limit: 60,
  remaining: 42,
  resetInMs: 30_000,
  pauseReason: null,
  pausedForMs: 0,
  paceMs: null,
  pacingReason: null,
  heldForMs: 0,
  devices: 1,
  queued: 0,
  notice: null,
};

const text = () => screen.getByRole('status', { name: 'Rate limit' }).textContent?.replace(/\s+/g, ' ') ?? '';

describe('RateMeter', () => {
  afterEach(cleanup);

  it('shows remaining / limit and the time to reset', () => {
    render(RateMeter, { meter: base });
    expect(text()).toContain('42 / 60 left');
    expect(text()).toContain('resets in 30 s');
    expect(screen.getByRole('meter', { name: 'Requests left in this window' })).toBeTruthy();
  });

  it('never reads a one-minute window as more than a minute (the reset is known to the second at best)', () => {
    // X-RateLimit-Reset is a whole Unix second and the clock skew is known within about a
    // second, so a fresh 60 s window reads 60.4–61.9 s away: "1 min 01 s" says more than is known.
    render(RateMeter, { meter: { ...base, resetInMs: 61_400 } });
    expect(text()).toContain('resets in about 1 min');
    expect(text()).not.toMatch(/1 min 0\d s/);
    cleanup();
    render(RateMeter, { meter: { ...base, resetInMs: 59_200 } });
    expect(text()).toContain('resets in 60 s');
    cleanup();
    render(RateMeter, { meter: { ...base, resetInMs: 3_600_000 + 61_000 } });
    expect(text()).toContain('resets in 1 h 01 min');
  });

  it('shows a remaining count it cannot believe (above the limit) as unknown', () => {
    render(RateMeter, { meter: { ...base, limit: 14_052_449, remaining: null } });
    expect(text()).toContain('? / 14052449 left');
    expect(text()).not.toContain('90287921');
  });

  it('says when other devices share the key', () => {
    render(RateMeter, { meter: { ...base, devices: 4 } });
    expect(text()).toContain('key shared with about 3 other devices');
  });

  it('shows why it is paused and a countdown', () => {
    render(RateMeter, {
      meter: { ...base, state: 'paused', remaining: 0, pauseReason: 'retry_after', pausedForMs: 65_000 },
    });
    const meter = screen.getByRole('status', { name: 'Rate limit' });
    expect(meter.className).toContain('meter--paused');
    expect(text()).toContain('Paused');
    expect(text()).toContain('the service asked us to wait');
    expect(screen.getByTestId('pause-countdown').textContent).toBe('1 min 05 s');
  });

  it('shows "Paused · resumes in N s" with no limit known (a gateway that sends no rate headers)', () => {
    render(RateMeter, {
      meter: {
        ...base,
        state: 'paused',
        limit: null,
        remaining: null,
        resetInMs: null,
        pauseReason: 'throttled',
        pausedForMs: 12_000,
        queued: 3,
      },
    });
    expect(text()).toMatch(/Paused\s*resumes in 12 s · the service asked us to slow down · 3 waiting/);
    expect(text()).not.toContain('not measured');
  });

  it('shows the check after a pause, and a slowed pace, as holding requests too', () => {
    render(RateMeter, { meter: { ...base, state: 'waiting', limit: null, queued: 2 } });
    expect(text()).toContain('Paused');
    expect(text()).toContain('waiting, the service asked us to slow down · 2 waiting');
    cleanup();
    render(RateMeter, {
      meter: { ...base, state: 'pacing', limit: null, paceMs: 1429, pacingReason: 'learned', queued: 5 },
    });
    expect(text()).toContain('Slowed');
    expect(text()).toContain('1 request every 1.4 s · the service asked us to slow down · 5 waiting');
    cleanup();
    render(RateMeter, {
      meter: { ...base, state: 'pacing', paceMs: 4000, pacingReason: 'shared_key', heldForMs: 6500, queued: 9 },
    });
    expect(text()).toContain('next request in 7 s · other devices use this key too · 9 waiting');
  });

  it('says "not measured yet" only when nothing is known and nothing is held', () => {
    render(RateMeter, { meter: { ...base, state: 'unknown', limit: null, remaining: null } });
    expect(text()).toContain('Rate limit: not measured yet');
  });

  it('has a distinct state when the daily quota is used up', () => {
    render(RateMeter, {
      meter: {
        ...base,
        state: 'quota',
        remaining: 0,
        pauseReason: 'quota_exhausted',
        pausedForMs: 3 * 3600_000,
      },
    });
    const meter = screen.getByRole('status', { name: 'Rate limit' });
    expect(meter.className).toContain('meter--quota');
    expect(meter.className).not.toContain('meter--paused');
    expect(text()).toContain('Daily quota used up');
    expect(text()).toContain('resumes in 3 h 00 min');
  });
});
