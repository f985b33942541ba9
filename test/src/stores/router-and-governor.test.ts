import { describe, expect, it } from 'vitest';
import type { GovernorSnapshot } from '../../../src/shared/rate-limit';
import { ClockStore, formatDuration } from '../../../src/stores/clock.svelte';
import { GovernorStore } from '../../../src/stores/governor.svelte';
import { parseHash } from '../../../src/stores/router.svelte';
import { fakeAdoptionApi } from '../fake-adoption-api';

describe('parseHash', () => {
  it('reads every route, keeping ids exact', () => {
    expect(parseHash('')).toEqual({ name: 'animals' });
    expect(parseHash('#/animals')).toEqual({ name: 'animals' });
    expect(parseHash('#/animals/new')).toEqual({ name: 'new' });
    expect(parseHash('#/animals/9223372036854775807')).toEqual({ name: 'detail', id: '9223372036854775807' });
    expect(parseHash('#/saved')).toEqual({ name: 'saved' });
    expect(parseHash('#/settings')).toEqual({ name: 'settings' });
    expect(parseHash('#/orders')).toEqual({ name: 'orders' });
    expect(parseHash('#/diagnostics')).toEqual({ name: 'diagnostics' });
    expect(parseHash('#/animals/12abc').name).toBe('not_found');
  });
});

describe('GovernorStore', () => {
  const snapshot: GovernorSnapshot = {
    profileId: 'local',
    limit: 3,
    remaining: 0,
    resetAt: 40_000,
    pausedUntil: 30_000,
    pauseReason: 'retry_after',
    dailyExhausted: false,
    probing: false,
    queued: { reads: 1, writes: 2 },
    inFlight: 0,
    notice: null,
  };

  it('counts down the pause with the ticking clock', () => {
    let now = 10_000;
    const clock = new ClockStore(() => now);
    const api = fakeAdoptionApi();
    const governor = new GovernorStore(api, clock);
    governor.start();
    api.emit('governor', snapshot);
    expect(governor.meter('local')).toMatchObject({ paused: true, pausedForMs: 20_000, queued: 3, resetInMs: 30_000 });
    now = 29_500;
    clock.now = now;
    expect(formatDuration(governor.meter('local')!.pausedForMs)).toBe('1 s');
    clock.now = 31_000;
    expect(governor.meter('local')).toMatchObject({ paused: false, pausedForMs: 0 });
    expect(governor.meter('other')).toBeNull();
  });
});
