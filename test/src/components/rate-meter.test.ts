import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import RateMeter from '../../../src/components/RateMeter.svelte';
import type { MeterView } from '../../../src/stores/governor.svelte';

const base: MeterView = {
  limit: 60,
  remaining: 42,
  resetInMs: 30_000,
  paused: false,
  pauseReason: null,
  pausedForMs: 0,
  dailyExhausted: false,
  probing: false,
  queued: 0,
  notice: null,
};

describe('RateMeter', () => {
  afterEach(cleanup);

  it('shows remaining / limit and the time to reset', () => {
    render(RateMeter, { meter: base });
    const meter = screen.getByRole('status', { name: 'Rate limit' });
    expect(meter.textContent).toContain('42 / 60 left');
    expect(meter.textContent).toContain('resets in 30 s');
    expect(screen.getByRole('meter', { name: 'Requests left in this window' })).toBeTruthy();
  });

  it('shows why it is paused and a countdown', () => {
    render(RateMeter, {
      meter: { ...base, remaining: 0, paused: true, pauseReason: 'retry_after', pausedForMs: 65_000 },
    });
    const meter = screen.getByRole('status', { name: 'Rate limit' });
    expect(meter.className).toContain('meter--paused');
    expect(meter.textContent).toContain('Paused');
    expect(meter.textContent).toContain('the service asked us to wait');
    expect(screen.getByTestId('pause-countdown').textContent).toBe('1 min 05 s');
  });

  it('has a distinct state when the daily quota is used up', () => {
    render(RateMeter, {
      meter: {
        ...base,
        remaining: 0,
        paused: true,
        pauseReason: 'quota_exhausted',
        pausedForMs: 3 * 3600_000,
        dailyExhausted: true,
      },
    });
    const meter = screen.getByRole('status', { name: 'Rate limit' });
    expect(meter.className).toContain('meter--quota');
    expect(meter.className).not.toContain('meter--paused');
    expect(meter.textContent).toContain('Daily quota used up');
    expect(meter.textContent).toContain('resumes in 3 h 00 min');
  });
});
