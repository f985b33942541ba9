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
});
