/**
 * The packaged app, started as staff start it (issue 21): the executable electron-builder made
 * with the real Electron (`electron-builder --dir`), named by `ADOPTION_PACKAGED_APP`. Run by the
 * project's GitHub workflow on Linux, macOS and Windows after packaging; skipped elsewhere with
 * the reason printed.
 *
 * Playwright's `_electron.launch` cannot start it: it needs Node's inspector (`--inspect=0`,
 * playwright-core's electron launcher waits for "Debugger listening on"), which the package's
 * fuses switch off. So the app is started with Chromium's own `--remote-debugging-port=0` and its
 * window reached over the DevTools protocol (`chromium.connectOverCDP`), as an outsider would.
 * What is checked:
 * - the window shows the Local demo animals (the packaged app ignores every ADOPTION_* variable:
 *   its Local demo is http://127.0.0.1:4010/v1 and its key is in the keychain entry "Adoption Desk");
 * - `ELECTRON_RUN_AS_NODE=1` does not turn it into Node, and `--inspect` opens no inspector (fuses);
 * - macOS and Windows: one byte changed in app.asar and it refuses to start (asar integrity).
 */
import { type Browser, chromium, expect, test } from '@playwright/test';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeBoundKey } from '../../../electron/core/keys/bound-key';
import { DEFAULT_KEYCHAIN_SERVICE } from '../../../electron/core/keys/keytar-secret-store';
import { openOsKeychain } from '../../../electron/core/keys/os-keychain';
import { DEFAULT_LOCAL_DEMO_URL } from '../../../electron/core/profiles/built-in-profiles';
import { startService } from '../../service/index';
import { copyPackagedApp, requirePackagedApp, resourcesOf, start, stop } from '../support/packaged-app';

test.describe('the packaged app', () => {
  const executable = requirePackagedApp(test, 'packaged app');
  test.setTimeout(120_000);

  let home: string;
  let env: NodeJS.ProcessEnv;

  test.beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'adoption-packaged-'));
    // A data folder of its own where the system lets one be chosen (Linux: XDG_CONFIG_HOME,
    // Windows: APPDATA); macOS always uses ~/Library/Application Support (a fresh runner's).
    env = { ...process.env, XDG_CONFIG_HOME: home, APPDATA: home };
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.NODE_OPTIONS;
  });

  test.afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('starts on the Local demo profile and shows its animals', async () => {
    const key = `packaged-${Date.now()}`;
    const port = Number(new URL(DEFAULT_LOCAL_DEMO_URL).port);
    const service = await startService({ port, keys: { [key]: 'free' }, seedAnimals: 40 });
    const keychain = await openOsKeychain(DEFAULT_KEYCHAIN_SERVICE);
    await storeBoundKey(keychain, 'local', DEFAULT_LOCAL_DEMO_URL, key);
    const app = start(executable, [], env);
    let browser: Browser | null = null;
    try {
      const outcome = await app.outcome;
      if (!('devtools' in outcome)) throw new Error(`the app ended: ${JSON.stringify(outcome)}\n${app.output()}`);
      browser = await chromium.connectOverCDP(outcome.devtools);
      const context = browser.contexts()[0]!;
      const page =
        context.pages().find((p) => p.url().startsWith('app://')) ??
        (await context.waitForEvent('page', (p) => p.url().startsWith('app://') || p.url() === 'about:blank'));
      await page.waitForURL(/^app:\/\/adoption-desk\//);
      await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');
      const response = await fetch(`${service.url}/pets?limit=5`, { headers: { Authorization: `Bearer ${key}` } });
      for (const animal of (await response.json()) as { name: string }[]) {
        await expect(page.getByText(animal.name, { exact: true }).first()).toBeVisible();
      }
    } finally {
      await browser?.close().catch(() => undefined);
      await stop(app);
      await keychain.delete('local').catch(() => undefined);
      await service.stop();
    }
  });

  test('ELECTRON_RUN_AS_NODE does not make it Node, and --inspect opens no inspector (fuses)', async () => {
    const asNode = start(executable, ['-e', 'process.stdout.write("ran as node")'], {
      ...env,
      ELECTRON_RUN_AS_NODE: '1',
    });
    try {
      // It starts as the app (Chromium's DevTools line), not as Node running the script.
      expect(await asNode.outcome).toHaveProperty('devtools');
      expect(asNode.output()).not.toContain('ran as node');
    } finally {
      await stop(asNode);
    }

    const inspected = start(executable, ['--inspect=0'], env);
    try {
      expect(await inspected.outcome).toHaveProperty('devtools');
      // Node's inspector prints its address as the main process starts, before Chromium's DevTools line.
      expect(inspected.output()).not.toMatch(/Debugger listening on/);
    } finally {
      await stop(inspected);
    }
  });

  test('refuses to start when one byte of app.asar was changed (macOS, Windows)', async () => {
    test.skip(
      process.platform === 'linux',
      'Electron checks asar integrity on macOS and Windows only (docs/tutorial/asar-integrity.md)',
    );
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
    const tampered = start(copiedExe, [], env);
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
