/**
 * Electron (issue 21): the window staff work in.
 * - Navigation away from the app and new windows are denied (electron/main/window.ts:
 *   `will-navigate` prevented, `setWindowOpenHandler` → deny); the app keeps working.
 * - One app per data folder: a second start hands over to the first (`requestSingleInstanceLock`,
 *   `second-instance`) and exits, with one window still open.
 * - The window's size and place are remembered across a restart (window-bounds.ts).
 */
import { spawn } from 'node:child_process';
import { findElectronBinary } from '../../../scripts/lib/electron-binary';
import { expect, launchElectron, test } from '../fixtures';
import { electronLaunchPlan } from '../support/app-kind';
import { e2eOutDir } from '../support/global-setup';

test('Electron: leaving the app and opening windows are denied; the app goes on', async ({ app }) => {
  const { page, host } = app;
  await expect(page.getByTestId('animal-row').first()).toBeVisible();
  await host.electronApp.evaluate(({ BrowserWindow }) => {
    const attempts: string[] = [];
    (globalThis as unknown as { navigationAttempts: string[] }).navigationAttempts = attempts;
    BrowserWindow.getAllWindows()[0]!.webContents.on('will-navigate', (_event, url) => attempts.push(url));
  });

  const opened = await page.evaluate(() => window.open('https://example.org/') === null);
  expect(opened).toBe(true);
  await page.evaluate(() => {
    window.location.href = 'https://example.org/';
  });
  // Once main has seen the attempt, the app's own listener (registered first) has prevented it.
  await expect
    .poll(() =>
      host.electronApp.evaluate(() => (globalThis as unknown as { navigationAttempts: string[] }).navigationAttempts),
    )
    .toEqual(['https://example.org/']);
  expect(host.electronApp.windows()).toHaveLength(1);
  expect(page.url()).toMatch(/^app:\/\/adoption-desk\//);
  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await expect(page.getByRole('heading', { name: 'Saved on this device' })).toBeVisible();
});

test('Electron: a second start of the app hands over to the first and exits', async ({
  app,
  dataDir,
  keychainService,
}) => {
  const { host, service } = app;
  await host.electronApp.evaluate(({ app: electronApp }) => {
    (globalThis as unknown as { secondInstances: number }).secondInstances = 0;
    electronApp.on('second-instance', () => {
      (globalThis as unknown as { secondInstances: number }).secondInstances += 1;
    });
  });
  const launch = electronLaunchPlan({
    binary: findElectronBinary(),
    outDir: e2eOutDir(),
    dataDir,
    localDemoUrl: service.url,
    keychainService,
    env: process.env,
  });
  if (!launch.ok) throw new Error(launch.reason);
  // As Playwright starts Electron on Linux: without Chromium's setuid sandbox helper.
  const sandbox = process.platform === 'linux' ? ['--no-sandbox'] : [];
  const second = spawn(launch.plan.executablePath, [...sandbox, ...launch.plan.args], {
    env: launch.plan.env,
    stdio: 'ignore',
  });
  const exitCode = await new Promise<number | null>((resolve) => second.once('exit', (code) => resolve(code)));
  expect(exitCode).toBe(0);
  await expect
    .poll(() => host.electronApp.evaluate(() => (globalThis as unknown as { secondInstances: number }).secondInstances))
    .toBe(1);
  expect(host.electronApp.windows()).toHaveLength(1);
});

test('Electron: the window opens again where staff left it, at the size they gave it', async ({
  app,
  dataDir,
  keychainService,
}, testInfo) => {
  const { host, service } = app;
  const wanted = { x: 40, y: 48, width: 720, height: 540 };
  await host.electronApp.evaluate(({ BrowserWindow }, bounds) => {
    BrowserWindow.getAllWindows()[0]!.setBounds(bounds);
  }, wanted);
  await host.electronApp.close();

  const again = await launchElectron({ dataDir, localDemoUrl: service.url, keychainService, testInfo });
  try {
    await again.firstWindow();
    const bounds = await again.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.getBounds());
    expect({ width: bounds.width, height: bounds.height }).toEqual({ width: wanted.width, height: wanted.height });
    // A window manager may nudge the position by its frame; the place stays where it was.
    expect(Math.abs(bounds.x - wanted.x)).toBeLessThanOrEqual(40);
    expect(Math.abs(bounds.y - wanted.y)).toBeLessThanOrEqual(40);
  } finally {
    await again.close();
  }
});
