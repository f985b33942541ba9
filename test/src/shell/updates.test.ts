/**
 * What staff read of the app's updates (issue 21, item 4): one line under the title bar when an
 * update is ready, saying what it waits for; every state in words in Diagnostics.
 */
import { describe, expect, it } from 'vitest';
import type { UpdateStatus } from '../../../src/shared/app-api/updates';
import { describeUpdate, updateNotice, UpdatesStore } from '../../../src/shell';
import { ok } from '../../../src/shared/app-api/result';

describe('update notices', () => {
  it('an update ready: what it waits for, or that it installs on close', () => {
    expect(updateNotice({ state: 'ready', version: '0.2.0', waiting: 3 })).toBe(
      'Update ready: it installs once the 3 waiting animals are sent.',
    );
    expect(updateNotice({ state: 'ready', version: '0.2.0', waiting: 1 })).toBe(
      'Update ready: it installs once the waiting animal is sent.',
    );
    expect(updateNotice({ state: 'ready', version: '0.2.0', waiting: 0 })).toBe(
      'Update ready: version 0.2.0 installs when you close Adoption Desk.',
    );
    for (const status of [
      null,
      { state: 'off', reason: 'x' },
      { state: 'checking' },
      { state: 'downloading', version: '0.2.0', percent: 10 },
    ] as const)
      expect(updateNotice(status as UpdateStatus | null)).toBeNull();
  });

  it('every state in words for Diagnostics', () => {
    expect(describeUpdate({ state: 'off', reason: 'Updates come with the installed desktop app.' })).toBe(
      'Off: Updates come with the installed desktop app.',
    );
    expect(describeUpdate({ state: 'downloading', version: '0.2.0', percent: 42 })).toBe(
      'Downloading version 0.2.0 (42 %)…',
    );
    expect(
      describeUpdate({ state: 'failed', message: 'net::ERR_NAME_NOT_RESOLVED', lastCheck: 0, nextCheck: null }),
    ).toBe('The last look for an update failed: net::ERR_NAME_NOT_RESOLVED.');
    expect(describeUpdate({ state: 'idle', lastCheck: null, nextCheck: null })).toBe('Not looked for yet.');
  });

  it('the store reads the state, then follows the core’s events', async () => {
    let listener: ((status: UpdateStatus) => void) | null = null;
    const store = new UpdatesStore({
      updateStatus: async () => ok({ state: 'idle', lastCheck: null, nextCheck: null } as UpdateStatus),
      on: ((event: string, fn: (status: UpdateStatus) => void) => {
        if (event === 'update') listener = fn;
        return () => {
          listener = null;
        };
      }) as never,
    });
    await store.start();
    expect(store.status).toEqual({ state: 'idle', lastCheck: null, nextCheck: null });
    expect(store.notice).toBeNull();
    listener!({ state: 'ready', version: '0.2.0', waiting: 2 });
    expect(store.notice).toBe('Update ready: it installs once the 2 waiting animals are sent.');
    store.destroy();
    expect(listener).toBeNull();
  });
});
