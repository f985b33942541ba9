import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../src/sync/sync-driver';
import SyncIndicator from '../../../src/queue/SyncIndicator.svelte';

const progress: SyncProgress = {
  profileId: 'local',
  total: 12,
  sent: 2,
  active: true,
  pausedFor: null,
  lastError: null,
  allSentAt: null,
  nextAttemptAt: null,
  needsAttention: 0,
  checkNeeded: 0,
};

const text = () => screen.getByRole('status', { name: 'Connection and sync' }).textContent ?? '';

describe('SyncIndicator', () => {
  afterEach(cleanup);

  it('says "sending 3 of 12" while sending online', () => {
    render(SyncIndicator, { reach: 'online', waiting: 10, progress });
    expect(text()).toMatch(/Online\s*·\s*sending 3 of 12/);
  });

  it('offline, counts what waits instead', () => {
    render(SyncIndicator, { reach: 'offline', waiting: 10, progress });
    expect(text()).toMatch(/Offline\s*·\s*10 waiting to send/);
  });

  it('before anything was tried says "Not checked yet", never "Online"', () => {
    render(SyncIndicator, { reach: 'unknown', waiting: 0, progress: null });
    expect(text()).toMatch(/Not checked yet\s*·\s*nothing to send/);
    expect(text()).not.toContain('Online');
  });

  it('says all sent once something was sent and nothing waits; an empty queue is only "nothing to send"', () => {
    render(SyncIndicator, { reach: 'online', waiting: 0, anySent: true, progress: { ...progress, active: false } });
    expect(text()).toContain('all sent');
    cleanup();
    render(SyncIndicator, { reach: 'online', waiting: 0, progress: null });
    expect(text()).toMatch(/Online\s*·\s*nothing to send/);
  });

  it('never says all sent while entries wait for staff (check needed, needs attention)', () => {
    render(SyncIndicator, { reach: 'online', waiting: 0, toCheck: 2, anySent: true, progress: null });
    expect(text()).toMatch(/Online\s*·\s*2 to check/);
    expect(text()).not.toContain('all sent');
  });

  it('with no address says so and nothing about being online or sent', () => {
    render(SyncIndicator, { reach: 'unknown', hasAddress: false, waiting: 0, progress: null });
    expect(text()).toMatch(/No service address\s*·\s*nothing to send/);
    expect(text()).not.toMatch(/Online|all sent/);
  });

  it('says a key is needed when none is saved or it was refused, with what waits', () => {
    render(SyncIndicator, { reach: 'unknown', keyState: 'none', waiting: 0, progress: null });
    expect(text()).toMatch(/Not checked yet\s*·\s*key needed/);
    cleanup();
    render(SyncIndicator, { reach: 'online', keyState: 'refused', waiting: 2, progress: null });
    expect(text()).toMatch(/Online\s*·\s*2 waiting to send\s*·\s*key needed/);
  });
});
