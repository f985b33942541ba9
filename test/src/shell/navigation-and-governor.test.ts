import { describe, expect, it } from 'vitest';
import { GovernorStore } from '../../../src/diagnostics/governor.svelte';
import type { GovernorSnapshot } from '../../../src/shared/app-api/rate-limit';
import { ClockStore, formatDuration } from '../../../src/shell/clock.svelte';
import { parseHash } from '../../../src/shell/navigation.svelte';
import { ok } from '../../../src/shared/app-api/result';
import { fakeAdoptionApi } from '../support/fake-adoption-api';

describe('parseHash', () => {
  it('reads every route, keeping ids exact', () => {
    expect(parseHash('')).toEqual({ name: 'animals' });
    expect(parseHash('#/animals')).toEqual({ name: 'animals' });
    expect(parseHash('#/animals/new')).toEqual({ name: 'new' });
    expect(parseHash('#/animals/9223372036854775807')).toEqual({ name: 'detail', id: '9223372036854775807' });
    expect(parseHash('#/saved')).toEqual({ name: 'saved' });
    expect(parseHash('#/profiles')).toEqual({ name: 'profiles' });
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
    pacing: null,
    heldUntil: null,
    devices: 1,
    notice: null,
  };

  it('counts down the pause with the ticking clock', () => {
    let now = 10_000;
    const clock = new ClockStore(() => now);
    const api = fakeAdoptionApi();
    const governor = new GovernorStore(api, clock);
    governor.start();
    api.emit('governor', snapshot);
    expect(governor.meter('local')).toMatchObject({
      state: 'paused',
      pausedForMs: 20_000,
      queued: 3,
      resetInMs: 30_000,
    });
    expect(governor.holding('local')).toBe(true);
    now = 29_500;
    clock.now = now;
    expect(formatDuration(governor.meter('local')!.pausedForMs)).toBe('1 s');
    clock.now = 31_000;
    expect(governor.meter('local')).toMatchObject({ state: 'window', pausedForMs: 0 });
    expect(governor.holding('local')).toBe(false);
    expect(governor.meter('other')).toBeNull();
  });

  it('shows a pause although the limit was never told (a gateway hides the headers)', () => {
    const clock = new ClockStore(() => 10_000);
    const api = fakeAdoptionApi();
    const governor = new GovernorStore(api, clock);
    governor.start();
    api.emit('governor', { ...snapshot, limit: null, remaining: null, resetAt: null, pauseReason: 'throttled' });
    expect(governor.meter('local')).toMatchObject({ state: 'paused', pausedForMs: 20_000, limit: null });
    api.emit('governor', { ...snapshot, limit: null, pausedUntil: null, pauseReason: null, probing: true });
    expect(governor.meter('local')?.state).toBe('waiting');
    api.emit('governor', {
      ...snapshot,
      limit: null,
      pausedUntil: null,
      pauseReason: null,
      pacing: { intervalMs: 1429, reason: 'learned' },
      heldUntil: 10_800,
    });
    expect(governor.meter('local')).toMatchObject({ state: 'pacing', paceMs: 1429, pacingReason: 'learned' });
    api.emit('governor', {
      ...snapshot,
      limit: null,
      pausedUntil: null,
      pauseReason: null,
      queued: { reads: 0, writes: 0 },
    });
    expect(governor.meter('local')?.state).toBe('unknown');
  });

  it('keeps a snapshot pushed while its first look was under way: the look answers what it read before (CI, 2026-11-27)', async () => {
    const clock = new ClockStore(() => 10_000);
    const api = fakeAdoptionApi();
    let answer: (value: ReturnType<typeof ok<GovernorSnapshot>>) => void = () => {};
    // the first look was read before the list's answer came: nothing measured yet
    api.handle('governorSnapshot', () => new Promise((resolve) => (answer = resolve)));
    const governor = new GovernorStore(api, clock);
    governor.start();
    const loading = governor.load('local');
    // the list's answer: the window, pushed while the look is on its way
    api.emit('governor', { ...snapshot, pausedUntil: null, pauseReason: null, remaining: 2 });
    answer(ok({ ...snapshot, limit: null, remaining: null, resetAt: null, pausedUntil: null, pauseReason: null }));
    await loading;
    expect(governor.meter('local')).toMatchObject({ state: 'window', limit: 3, remaining: 2 });
    // with nothing pushed meanwhile, the look is what the meter shows
    api.handle('governorSnapshot', () => ok({ ...snapshot, profileId: 'other' }));
    await governor.load('other');
    expect(governor.meter('other')?.state).toBe('paused');
  });

  it('takes a remaining count above the limit as unknown', () => {
    const governor = new GovernorStore(fakeAdoptionApi(), new ClockStore(() => 50_000));
    governor.snapshots.local = { ...snapshot, pausedUntil: null, limit: 14_052_449, remaining: 90_287_921 };
    expect(governor.meter('local')).toMatchObject({ state: 'window', limit: 14_052_449, remaining: null });
  });
});
