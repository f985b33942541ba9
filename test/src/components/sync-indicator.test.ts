import { cleanup, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import SyncIndicator from '../../../src/components/SyncIndicator.svelte';
import type { SyncProgress } from '../../../src/stores/sync-driver';

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

describe('SyncIndicator', () => {
  afterEach(cleanup);

  it('says "sending 3 of 12" while sending online', () => {
    render(SyncIndicator, { online: true, waiting: 10, progress });
    expect(screen.getByRole('status', { name: 'Connection and sync' }).textContent).toMatch(
      /Online\s*·\s*sending 3 of 12/,
    );
  });

  it('offline, counts what waits instead', () => {
    render(SyncIndicator, { online: false, waiting: 10, progress });
    expect(screen.getByRole('status', { name: 'Connection and sync' }).textContent).toMatch(
      /Offline\s*·\s*10 waiting to send/,
    );
  });

  it('says all sent when nothing waits', () => {
    render(SyncIndicator, { online: true, waiting: 0, progress: { ...progress, active: false, sent: 12 } });
    expect(screen.getByRole('status', { name: 'Connection and sync' }).textContent).toContain('all sent');
  });

  it('never says all sent while entries wait for staff (check needed, needs attention)', () => {
    render(SyncIndicator, { online: true, waiting: 0, toCheck: 2, progress: { ...progress, active: false } });
    const text = screen.getByRole('status', { name: 'Connection and sync' }).textContent ?? '';
    expect(text).toMatch(/Online\s*·\s*2 to check/);
    expect(text).not.toContain('all sent');
  });
});
