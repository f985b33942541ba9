/**
 * The packaged specs' way of starting and ending the app (test/e2e/support/packaged-app.ts),
 * checked with a stand-in executable: the packaged app itself exists only on the CI runners.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { dataFolderArgs, start, type Started, stop } from '../e2e/support/packaged-app';

const dir = mkdtempSync(join(tmpdir(), 'adoption-packaged-support-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Whatever a failed test left running is killed by its pid.
const started: Started[] = [];
afterEach(() => {
  for (const app of started.splice(0))
    if (app.process.exitCode === null && app.process.signalCode === null) app.process.kill('SIGKILL');
});

describe.skipIf(process.platform === 'win32')('the packaged app’s start and stop (a POSIX stand-in)', () => {
  it('stop() ends at once an app that takes SIGTERM as a graceful quit (as Electron does)', async () => {
    // Electron installs shutdown signal handlers that turn SIGTERM into Browser::Quit
    // (shell/browser/electron_browser_main_parts.cc:596-600): before-quit, will-quit, and an
    // update's quit handler. The stand-in ignores SIGTERM outright: only a hard kill ends it.
    const exe = join(dir, 'graceful-app');
    writeFileSync(
      exe,
      "#!/bin/sh\ntrap '' TERM\necho 'DevTools listening on ws://127.0.0.1:1/devtools/browser/x' >&2\nwhile :; do sleep 1; done\n",
    );
    chmodSync(exe, 0o755);
    const app = start(exe, [], process.env);
    started.push(app);
    expect(await app.outcome).toEqual({ devtools: 'ws://127.0.0.1:1/devtools/browser/x' });
    await stop(app);
    expect(app.process.signalCode).toBe('SIGKILL');
  }, 10_000);

  it('gives the app a data folder of the test’s own with Chromium’s --user-data-dir', async () => {
    const exe = join(dir, 'args-app');
    writeFileSync(exe, '#!/bin/sh\necho "$@" >&2\necho \'DevTools listening on ws://x\' >&2\n');
    chmodSync(exe, 0o755);
    const app = start(exe, dataFolderArgs(join(dir, 'data of test')), process.env);
    started.push(app);
    await app.outcome;
    await new Promise((resolve) => app.process.once('close', resolve));
    expect(app.output()).toContain(`--user-data-dir=${join(dir, 'data of test')}`);
  });
});
