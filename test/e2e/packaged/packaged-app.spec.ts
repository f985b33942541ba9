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
 * - the window shows the Local demo animals once staff paste the key (the packaged app ignores every
 *   ADOPTION_* variable: its Local demo is http://127.0.0.1:4010/v1 and its key is in the keychain
 *   entry "Adoption Desk"). The key goes in through the app's own Keys and profiles screen and is
 *   removed there again, never by this Node process: on macOS a keychain item is trusted only by
 *   the binary that wrote it (its ACL names the creating application), so a key Node wrote would
 *   make the app's read raise a Keychain prompt that blocks the run, and the packaged app cannot
 *   lend its binary to a helper (its RunAsNode fuse is off, as the second test checks);
 * - the system's root certificates were read at start (printed by the main process);
 * - `ELECTRON_RUN_AS_NODE=1` does not turn it into Node, and `--inspect` opens no inspector (fuses).
 * Asar integrity (macOS and Windows only) is packaged-asar.spec.ts.
 */
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LOCAL_DEMO_URL } from '../../../electron/core/profiles/built-in-profiles';
import { startService } from '../../service/index';
import { dataFolderArgs, requirePackagedApp, start, stop } from '../support/packaged-app';

/** Keys and profiles → Remove key: the key leaves the keychain through the app that wrote it. */
async function removeKeyThroughTheApp(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const card = page.getByRole('region', { name: 'API key', exact: true });
  await expect(card.getByTestId('key-state')).toHaveText(/^(Key saved|No key saved)$/);
  const remove = card.getByRole('button', { name: 'Remove key' });
  if (await remove.isEnabled()) await remove.click();
  await expect(card.getByTestId('key-state')).toHaveText('No key saved');
}

test.describe('the packaged app', () => {
  const executable = requirePackagedApp(test, 'packaged app');
  test.setTimeout(120_000);

  let home: string;
  let env: NodeJS.ProcessEnv;

  let ownData: string[];

  test.beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'adoption-packaged-'));
    // A data folder of its own on every system (--user-data-dir: support/packaged-app.ts dataFolderArgs).
    ownData = dataFolderArgs(join(home, 'user-data'));
    env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    delete env.NODE_OPTIONS;
  });

  test.afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('starts on the Local demo profile and, with the key staff paste, shows its animals', async () => {
    const key = `packaged-${Date.now()}`;
    const port = Number(new URL(DEFAULT_LOCAL_DEMO_URL).port);
    const service = await startService({ port, keys: { [key]: 'free' }, seedAnimals: 40 });
    const app = start(executable, ownData, env);
    let browser: Browser | null = null;
    let page: Page | null = null;
    try {
      const outcome = await app.outcome;
      if (!('devtools' in outcome)) throw new Error(`the app ended: ${JSON.stringify(outcome)}\n${app.output()}`);
      browser = await chromium.connectOverCDP(outcome.devtools);
      const context = browser.contexts()[0]!;
      page =
        context.pages().find((p) => p.url().startsWith('app://')) ??
        (await context.waitForEvent('page', (p) => p.url().startsWith('app://') || p.url() === 'about:blank'));
      await page.waitForURL(/^app:\/\/adoption-desk\//);
      await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');
      // An organisation's own root must be trusted on every system: the system's roots were read
      // (electron/main/system-certificates.ts; Node in Electron was reported to read none on macOS).
      const roots = /system certificates: (\d+) roots read, (\d+) added/.exec(app.output());
      expect(Number(roots?.[1] ?? 0), app.output()).toBeGreaterThan(0);

      // The key, as staff give it: pasted under Keys and profiles and saved (by the app, in its keychain).
      await page.getByRole('link', { name: 'Keys and profiles' }).click();
      const card = page.getByRole('region', { name: 'API key', exact: true });
      await card.getByLabel(/API key$/).fill(key);
      await card.getByRole('button', { name: 'Save key' }).click();
      await expect(card.getByTestId('key-state')).toHaveText('Key saved');

      await page.getByRole('link', { name: 'Animals', exact: true }).click();
      const response = await fetch(`${service.url}/pets?limit=5`, { headers: { Authorization: `Bearer ${key}` } });
      for (const animal of (await response.json()) as { name: string }[]) {
        await expect(page.getByText(animal.name, { exact: true }).first()).toBeVisible();
      }
      await removeKeyThroughTheApp(page);
      page = null;
    } finally {
      // A failed run still takes its key out the way it came in (its own failure is the one reported).
      if (page && !page.isClosed())
        await removeKeyThroughTheApp(page).catch((error: unknown) =>
          console.error(`[packaged app] the key may be left in the keychain entry "Adoption Desk": ${String(error)}`),
        );
      await browser?.close().catch(() => undefined);
      await stop(app);
      await service.stop();
    }
  });

  test('ELECTRON_RUN_AS_NODE does not make it Node, and --inspect opens no inspector (fuses)', async () => {
    const asNode = start(executable, [...ownData, '-e', 'process.stdout.write("ran as node")'], {
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

    const inspected = start(executable, [...ownData, '--inspect=0'], env);
    try {
      expect(await inspected.outcome).toHaveProperty('devtools');
      // Node's inspector prints its address as the main process starts, before Chromium's DevTools line.
      expect(inspected.output()).not.toMatch(/Debugger listening on/);
    } finally {
      await stop(inspected);
    }
  });
});
