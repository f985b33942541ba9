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
import { chromium, type Page, type Route } from '@playwright/test';
import { request as httpRequest } from 'node:http';
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

  // Issue 33, found by the event-day simulator (docs/simulation.md: chunk 52, day 17). The progress
  // was counted only at the sync engine's own steps: the site's data cleared while it checked the
  // lists for an entry in doubt left "sending 1 of 1" on screen with nothing stored.
  test('the indicator stops saying "sending 1 of 1" when the data is cleared while a doubt is checked', async ({
    app,
  }) => {
    test.setTimeout(60_000);
    const { page, service } = app;
    await expectListLoaded(page);
    const indicator = page.getByTestId('sync-indicator');
    // Bella's creation reaches the service (the core writes its acknowledgement in the safety
    // copy), but its answer never reaches the page: the entry is in doubt there.
    let cutAnswers = true;
    await page.route('**/api/createPet', async (route) => {
      if (!cutAnswers) return route.continue();
      cutAnswers = false;
      await forwardToHost(route);
      await route.abort('connectionreset');
    });
    // The check of that doubt reads the service's lists (limit 100): held until the data is cleared.
    const held: Route[] = [];
    let holding = true;
    await page.route('**/api/listPets', async (route) => {
      const body = route.request().postDataJSON() as { query?: { limit?: number } };
      if (!holding || body.query?.limit !== 100) return route.continue();
      held.push(route);
    });
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await addAnimal(page, 'Bella', '1');
    await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await expect(indicator).toContainText('sending 1 of 1'); // true: Bella is in the queue

    await browserClearsIndexedDb(page);
    // The safety copy has Bella acknowledged: nothing comes back, and nothing waits.
    await expect(indicator).toContainText('nothing to send');
    await expect(indicator).not.toContainText('sending');

    holding = false;
    for (const route of held.splice(0)) await route.continue();
    await expect(indicator).toContainText('nothing to send');
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expect(page.getByTestId('animal-row').filter({ hasText: 'Bella' }).first()).toBeVisible();
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
    await expect(indicator).toContainText('nothing to send');
    const created = await creations(service);
    expect(created.map((line) => line.idempotencyKey)).toHaveLength(1); // Bella reached the service once
  });
});

/**
 * Sends the page's request on to the browser host and reads its answer, which the page never gets.
 * Not `route.fetch()`: it resolves `<site>.localhost` by DNS in Node (ENOTFOUND), where Chromium
 * takes every `*.localhost` name for loopback; so the request goes to 127.0.0.1 with its own Host.
 */
async function forwardToHost(route: Route): Promise<void> {
  const request = route.request();
  const url = new URL(request.url());
  const headers = { ...(await request.allHeaders()), host: url.host };
  const body = request.postDataBuffer() ?? Buffer.alloc(0);
  await new Promise<void>((resolve, reject) => {
    const forwarded = httpRequest(
      { host: '127.0.0.1', port: Number(url.port), path: url.pathname + url.search, method: request.method(), headers },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`host answered ${response.statusCode}`)),
        );
      },
    );
    forwarded.on('error', reject);
    forwarded.end(body);
  });
}

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
