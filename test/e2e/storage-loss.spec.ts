/**
 * Issue 20: the queue survives the browser losing its storage. Three animals are entered with the
 * service down; then Chromium itself deletes the site's IndexedDB (the DevTools protocol's
 * `Storage.clearDataForOrigin`, what "clear browsing data" and eviction of best-effort storage
 * do). After a reload (or a restart of the host) and with the service back, all three reach the
 * service exactly once, and staff are told they were restored from this computer's safety copy.
 * And a browser profile whose IndexedDB files are damaged while the browser is closed (a laptop
 * whose battery died mid-write): Chromium then cannot open the site's storage at all; the app says
 * so, works from the safety copy in the window's memory, and sends the queue once.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { type E2eService, expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded } from './renderer-helpers';
import { browserClearsIndexedDb } from './support/browser-storage';
import { openOnHostProcess, startHostProcess } from './support/host-process';
import { serviceList } from './support/toolkit';

const NAMES = ['Olive', 'Basil', 'Sage'];

async function queueOffline(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  for (const name of NAMES) await addAnimal(page, name, '7');
  await expect(page.getByTestId('queued-row')).toHaveCount(3);
}

async function expectRestoredAndSent(page: Page, names: readonly string[]): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: 'restored' })).toContainText(
    "3 animals restored from this computer's safety copy",
  );
  for (const name of names) {
    await expect(page.getByTestId('animal-row').filter({ hasText: name })).toContainText(/ID\s*\d+/, {
      timeout: 45_000,
    });
  }
}

/** The service created exactly the three, each once, under three idempotency keys. */
async function expectExactlyOnce(service: E2eService): Promise<void> {
  const created = await creations(service);
  expect(created).toHaveLength(3);
  expect(new Set(created.map((line) => line.idempotencyKey)).size).toBe(3);
  const listed = (await serviceList(service)).map((animal) => animal.name).filter((name) => NAMES.includes(name));
  expect(listed.sort()).toEqual([...NAMES].sort());
}

test.describe('the browser clears the site storage', () => {
  test.use({ serviceOptions: { seedAnimals: 5 } });

  test('three animals queued offline reach the service exactly once after a reload, and staff are told', async ({
    app,
  }) => {
    test.setTimeout(90_000);
    const { page, service } = app;
    await expectListLoaded(page);
    await service.stop();
    await queueOffline(page);

    await browserClearsIndexedDb(page);
    await page.reload();
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await service.restart();
    await expectRestoredAndSent(page, NAMES);

    await expectExactlyOnce(app.service);
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
    // Diagnostics lists the restore, and says the browser may clear the data (it did not promise to keep it).
    await page.getByRole('link', { name: 'Diagnostics' }).click();
    await expect(page.getByTestId('storage-persistence')).toContainText('may be cleared by the browser');
    await expect(page.getByRole('region', { name: 'Storage on this computer' })).toContainText(
      "Restored from this computer's safety copy: Olive, Basil, Sage.",
    );
  });

  test('the same across a restart of the host', async ({ service, dataDir, keychainService, secretStore, browser }) => {
    test.setTimeout(90_000);
    const opened = await openOnHostProcess({ service, dataDir, keychainService, secretStore, browser });
    const { options, context, page } = opened;
    let host = opened.host;
    try {
      await service.stop();
      await queueOffline(page);
      await browserClearsIndexedDb(page);

      await host.stop();
      host = await startHostProcess(options);
      await page.goto(host.launchUrl);
      await page.getByRole('link', { name: 'Animals', exact: true }).click();
      await service.restart();
      await expectRestoredAndSent(page, NAMES);
      await expectExactlyOnce(service);
    } finally {
      await context.close();
      await host.stop();
    }
  });
});

/** Every file of the browser profile's IndexedDB storage of `origin`, overwritten in places (a torn disk write). */
function damageIndexedDbFiles(userDataDir: string, origin: string): string[] {
  const folder = join(userDataDir, 'Default', 'IndexedDB');
  const site = `${origin.replace('://', '_').replace(/:(\d+)$/, '_$1')}.indexeddb`;
  const damaged: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (statSync(path).size > 0 && name !== 'LOCK') {
        const bytes = readFileSync(path);
        for (let i = 0; i < bytes.length; i += 7) bytes[i] = 0xff;
        writeFileSync(path, bytes);
        damaged.push(name);
      }
    }
  };
  for (const name of readdirSync(folder)) if (name.startsWith(site)) walk(join(folder, name));
  return damaged;
}

test.describe('the browser cannot open its storage', () => {
  test.use({ serviceOptions: { seedAnimals: 5 } });

  test('damaged IndexedDB files: the app says so, restores the queue from the safety copy and sends it once', async ({
    service,
    host,
  }) => {
    test.setTimeout(120_000);
    const userDataDir = mkdtempSync(join(tmpdir(), 'adoption-e2e-profile-'));
    const launch = () =>
      chromium.launchPersistentContext(userDataDir, { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      let context = await launch();
      let page = await context.newPage();
      await page.goto(host.launchUrl());
      await expectListLoaded(page);
      await service.stop();
      await queueOffline(page);
      await context.close();

      expect(damageIndexedDbFiles(userDataDir, new URL(host.url).origin).length).toBeGreaterThan(0);
      context = await launch();
      page = await context.newPage();
      // The browser's own view: it cannot open the site's storage any more.
      await page.goto(host.launchUrl());
      expect(
        await page.evaluate(
          () =>
            new Promise<string>((resolve) => {
              const request = indexedDB.open('test-probe');
              request.onsuccess = () => resolve('opened');
              request.onerror = () => resolve(request.error?.name ?? 'error');
            }),
        ),
      ).toBe('UnknownError');

      const notice = page.getByTestId('storage-notice');
      await expect(notice).toContainText("This computer's browser storage cannot be used", { timeout: 20_000 });
      await expect(notice).toContainText("3 animals restored from this computer's safety copy");
      await page.getByRole('link', { name: 'Animals', exact: true }).click();
      await expect(page.getByTestId('queued-row')).toHaveCount(3);
      await service.restart();
      for (const name of NAMES) {
        await expect(page.getByTestId('animal-row').filter({ hasText: name })).toContainText(/ID\s*\d+/, {
          timeout: 45_000,
        });
      }
      await expectExactlyOnce(service);
      await context.close();
    } finally {
      rmSync(userDataDir, { recursive: true, force: true });
    }
  });
});
