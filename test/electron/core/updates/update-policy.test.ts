/**
 * The update rule (issue 21, item 4) on a fake clock: a look soon after start and every four hours,
 * a failed look said and tried again, and a downloaded update installed on close only while no
 * animal is waiting to be sent.
 */
import { describe, expect, it } from 'vitest';
import {
  CHECK_EVERY_MS,
  FIRST_CHECK_AFTER_MS,
  notInstalledApp,
  UpdatePolicy,
  type UpdaterPort,
} from '../../../../electron/core/updates';
import type { UpdateStatus } from '../../../../src/shared/app-api/updates';
import { FakeClock } from '../../../support/fake-clock';

function setUp(check: () => Promise<void> = async () => {}) {
  const clock = new FakeClock();
  const emitted: UpdateStatus[] = [];
  const installOnQuit: boolean[] = [];
  let checks = 0;
  const port: UpdaterPort = {
    check: async () => {
      checks += 1;
      await check();
    },
    setInstallOnQuit: (allowed) => installOnQuit.push(allowed),
  };
  const policy = new UpdatePolicy({
    clock,
    settings: { enabled: true, feedUrl: 'https://updates.example.org/' },
    port,
    emit: (status) => emitted.push(status),
  });
  return { clock, policy, emitted, installOnQuit, checks: () => checks };
}

describe('the update rule', () => {
  it('is off outside the installed app, and when the organisation switched it off', () => {
    const clock = new FakeClock();
    const none = new UpdatePolicy({
      clock,
      settings: { enabled: true, feedUrl: 'https://updates.example.org/' },
      port: null,
      emit: () => {},
    });
    expect(none.status()).toEqual({ state: 'off', reason: notInstalledApp() });
    const port: UpdaterPort = { check: async () => {}, setInstallOnQuit: () => {} };
    const off = new UpdatePolicy({
      clock,
      settings: { enabled: false, reason: 'Your organisation switched updates off.' },
      port,
      emit: () => {},
    });
    off.start();
    clock.advance(CHECK_EVERY_MS * 3);
    expect(off.status()).toEqual({ state: 'off', reason: 'Your organisation switched updates off.' });
    expect(clock.pendingTimers()).toEqual([]);
  });

  it('looks soon after start, then every four hours', async () => {
    const { clock, policy, checks } = setUp();
    const t0 = clock.now();
    policy.start();
    expect(policy.status()).toEqual({ state: 'idle', lastCheck: null, nextCheck: t0 + FIRST_CHECK_AFTER_MS });
    await clock.advanceAndSettle(FIRST_CHECK_AFTER_MS - 1);
    expect(checks()).toBe(0);
    await clock.advanceAndSettle(1);
    expect(checks()).toBe(1);
    policy.checking();
    policy.notAvailable();
    expect(policy.status()).toEqual({
      state: 'idle',
      lastCheck: t0 + FIRST_CHECK_AFTER_MS,
      nextCheck: t0 + FIRST_CHECK_AFTER_MS + CHECK_EVERY_MS,
    });
    await clock.advanceAndSettle(CHECK_EVERY_MS);
    expect(checks()).toBe(2);
    await clock.advanceAndSettle(CHECK_EVERY_MS);
    expect(checks()).toBe(3);
    policy.dispose();
  });

  it('says when a look failed, and looks again at the next time', async () => {
    let fail = true;
    const { clock, policy, checks } = setUp(async () => {
      if (fail) throw new Error('net::ERR_NAME_NOT_RESOLVED');
    });
    const t0 = clock.now();
    policy.start();
    await clock.advanceAndSettle(FIRST_CHECK_AFTER_MS);
    expect(policy.status()).toEqual({
      state: 'failed',
      message: 'net::ERR_NAME_NOT_RESOLVED',
      lastCheck: t0 + FIRST_CHECK_AFTER_MS,
      nextCheck: t0 + FIRST_CHECK_AFTER_MS + CHECK_EVERY_MS,
    });
    fail = false;
    await clock.advanceAndSettle(CHECK_EVERY_MS);
    expect(checks()).toBe(2);
    policy.notAvailable();
    expect(policy.status().state).toBe('idle');
    policy.dispose();
  });

  it('installs a downloaded update on close only while no animal is waiting to be sent', async () => {
    const { clock, policy, installOnQuit, checks } = setUp();
    policy.waitingChanged(3);
    policy.start();
    await clock.advanceAndSettle(FIRST_CHECK_AFTER_MS);
    policy.available('0.2.0');
    policy.progress(41.6);
    expect(policy.status()).toEqual({ state: 'downloading', version: '0.2.0', percent: 42 });
    // Nothing is decided before the download is complete (electron-updater adds its quit handler then).
    expect(installOnQuit).toEqual([]);
    policy.downloaded('0.2.0');
    expect(policy.status()).toEqual({ state: 'ready', version: '0.2.0', waiting: 3 });
    expect(installOnQuit).toEqual([false]);

    policy.waitingChanged(1);
    expect(policy.status()).toEqual({ state: 'ready', version: '0.2.0', waiting: 1 });
    policy.waitingChanged(0);
    expect(installOnQuit).toEqual([false, false, true]);
    // An animal entered after that: not on close any more.
    policy.waitingChanged(1);
    expect(installOnQuit.at(-1)).toBe(false);

    // With an update waiting to be installed, there is nothing more to look for.
    await clock.advanceAndSettle(CHECK_EVERY_MS * 2);
    expect(checks()).toBe(1);
    policy.failed('late error');
    expect(policy.status().state).toBe('ready');
    policy.dispose();
  });

  it('is not ready, and may not install, before the waiting animals were counted', () => {
    const { policy, installOnQuit } = setUp();
    policy.available('0.2.0');
    policy.downloaded('0.2.0');
    expect(policy.status()).toEqual({ state: 'downloading', version: '0.2.0', percent: 100 });
    expect(installOnQuit).toEqual([false]);
    policy.waitingChanged(0);
    expect(policy.status()).toEqual({ state: 'ready', version: '0.2.0', waiting: 0 });
    expect(installOnQuit).toEqual([false, true]);
  });

  it('tells every change, in order', async () => {
    const { clock, policy, emitted } = setUp();
    policy.waitingChanged(0);
    policy.start();
    await clock.advanceAndSettle(FIRST_CHECK_AFTER_MS);
    policy.checking();
    policy.available('0.2.0');
    policy.downloaded('0.2.0');
    expect(emitted.map((status) => status.state)).toEqual(['idle', 'idle', 'checking', 'downloading', 'ready']);
    policy.dispose();
  });
});
