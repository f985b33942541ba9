/**
 * The packaged app refuses to start when app.asar was changed (asar integrity, issue 21): one byte
 * of a copy's archive changed, and it stops instead of showing the app. macOS and Windows only:
 * Electron checks asar integrity there (docs/tutorial/asar-integrity.md), so on Linux this file is
 * for the config to leave out (a spec of its own, so that a run-time skip is never needed). Started
 * as packaged-app.spec.ts starts the app (support/packaged-app.ts).
 */
import { type Browser, chromium, expect, test } from '@playwright/test';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPackagedApp, dataFolderArgs, requirePackagedApp, resourcesOf, start, stop } from '../support/packaged-app';

test.describe('the packaged app’s archive', () => {
  const executable = requirePackagedApp(test, 'packaged asar');
  test.setTimeout(120_000);

  let home: string;
  let env: NodeJS.ProcessEnv;
  let ownData: string[];

  test.beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'adoption-packaged-asar-'));
    ownData = dataFolderArgs(join(home, 'user-data'));
    env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.NODE_OPTIONS;
  });

  test.afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('refuses to start when one byte of app.asar was changed (macOS, Windows)', async () => {
    // A copy of the whole app, so the package under test stays as built.
    const copiedExe = copyPackagedApp(executable, home);
    const asar = join(resourcesOf(copiedExe), 'app.asar');
    // One byte of the archive's header: the name of a screen loaded only on first use. Without the
    // integrity check the app would start as usual (that screen is not needed at start); with it,
    // the header no longer matches the hash recorded at packaging and Electron stops.
    const fd = openSync(asar, 'r+');
    try {
      const head = Buffer.alloc(Math.min(statSync(asar).size, 1 << 20));
      readSync(fd, head, 0, head.length, 0);
      const at = head.toString('latin1').search(/"OrdersScreen-[^"]+\.js"/);
      expect(at, 'the header names the Store orders screen').toBeGreaterThan(0);
      writeSync(fd, Buffer.from('o'), 0, 1, at + 1);
    } finally {
      closeSync(fd);
    }
    const tampered = start(copiedExe, ownData, env);
    let browser: Browser | null = null;
    try {
      let outcome = await tampered.outcome;
      if ('devtools' in outcome) {
        // Chromium may be up before the archive is read: it must still not get to the app.
        browser = await chromium.connectOverCDP(outcome.devtools).catch(() => null);
        const page = browser?.contexts()[0]?.pages()[0];
        const appShown = page
          ?.getByTestId('active-profile-name')
          .waitFor({ timeout: 60_000 })
          .then(() => 'shown' as const)
          .catch(() => 'not shown' as const);
        const ended = new Promise<{ exit: number | null; signal: NodeJS.Signals | null }>((resolve) => {
          if (tampered.process.exitCode !== null || tampered.process.signalCode !== null)
            resolve({ exit: tampered.process.exitCode, signal: tampered.process.signalCode });
          else tampered.process.once('exit', (exit, signal) => resolve({ exit, signal }));
        });
        const first = await Promise.race([ended, appShown ?? ended]);
        expect(first, `the tampered app showed its window\n${tampered.output()}`).not.toBe('shown');
        outcome = await ended;
      }
      expect(outcome).not.toEqual({ exit: 0, signal: null });
    } finally {
      await browser?.close().catch(() => undefined);
      await stop(tampered);
    }
  });
});
