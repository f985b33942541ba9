/**
 * Screenshots of the main screens, and axe on every screen. An ordinary run saves them with
 * the test's output; `UPDATE_SCREENSHOTS=1` writes the README's copies in docs/screenshots/
 * (so test runs never dirty the working tree).
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, spendRequests, test } from './fixtures';
import { browserClearsIndexedDb } from './support/browser-storage';
import { addAnimal, DETAIL_REFRESH_NOW, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

const README_SHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

async function shoot(page: Page, name: string): Promise<void> {
  const path = process.env.UPDATE_SCREENSHOTS
    ? resolve(README_SHOTS, `${name}.png`)
    : test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
}

test.describe('main screens', () => {
  test.use({ viewport: { width: 1200, height: 760 }, serviceOptions: { seedAnimals: 60 } });

  test('list and add', async ({ app }) => {
    const { page } = app;
    await expectListLoaded(page);
    await expectNoAxeViolations(page);
    await shoot(page, 'list');

    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await page.getByRole('button', { name: 'Add animal' }).click();
    await expect(page.getByText('Name is required.')).toBeVisible();
    await expectNoAxeViolations(page);
    await addAnimal(page, 'Biscuit', '3');
    const form = page.getByRole('form', { name: 'Add an animal' });
    await form.getByLabel(/^Name/).fill('Pepper');
    await form.getByLabel(/^Category ID/).fill('12.5');
    await form.getByLabel(/^Category ID/).press('Enter');
    await expect(page.getByText('Category ID must be a whole number')).toBeVisible();
    await shoot(page, 'add');
  });

  test('detail, the other screens, and dark mode', async ({ app }) => {
    const { page } = app;
    await expectListLoaded(page);
    await page.getByTestId('animal-row').first().click();
    // The test service runs on the real clock: its single-animal lookup answers until its sunset.
    await expect(page.getByTestId('detail-refresh')).toContainText(DETAIL_REFRESH_NOW);
    await expectNoAxeViolations(page);
    await shoot(page, 'detail');

    for (const name of ['Saved on this device', 'Store orders', 'Keys and profiles', 'Diagnostics']) {
      await page.getByRole('link', { name }).click();
      await expect(page.getByRole('heading', { level: 2 })).toBeVisible();
      await expectNoAxeViolations(page);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expectListLoaded(page);
    await expectNoAxeViolations(page);
    await shoot(page, 'list-dark');
  });

  test('offline with queued items', async ({ app }) => {
    const { page, service } = app;
    await expectListLoaded(page);
    await service.stop();
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await addAnimal(page, 'Waffles', '2');
    await addAnimal(page, 'Noodle', '5');
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expect(page.getByTestId('list-status')).toContainText('Offline: showing what was saved at');
    await expect(page.getByTestId('queued-row')).toHaveCount(2);
    await expectNoAxeViolations(page);
    await shoot(page, 'offline-queued');

    // Back online: the list follows by itself, each sent animal in place of its queued row.
    test.setTimeout(120_000);
    await service.restart();
    for (const name of ['Waffles', 'Noodle']) {
      await expect(page.getByTestId('animal-row').filter({ hasText: name })).toContainText(/ID\s*\d+/, {
        timeout: 30_000,
      });
    }
    await expect(page.getByTestId('all-sent')).toBeVisible();
    await expect(page.getByTestId('list-status')).toContainText('Updated');
    await expectNoAxeViolations(page);
    await shoot(page, 'back-online');
  });
});

test.describe('the browser lost its storage', () => {
  test.use({ viewport: { width: 1200, height: 760 }, serviceOptions: { seedAnimals: 12 } });

  test('animals restored from the safety copy', async ({ app }) => {
    const { page, service } = app;
    await expectListLoaded(page);
    await service.stop();
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    for (const name of ['Olive', 'Basil', 'Sage']) await addAnimal(page, name, '7');
    await browserClearsIndexedDb(page);
    await page.reload();
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expect(page.getByTestId('storage-notice')).toContainText(
      "3 animals restored from this computer's safety copy",
    );
    await expect(page.getByTestId('queued-row')).toHaveCount(3);
    await expectNoAxeViolations(page);
    await shoot(page, 'restored');

    await page.getByRole('link', { name: 'Diagnostics' }).click();
    await expect(page.getByRole('region', { name: 'Storage on this computer' })).toContainText(
      "Restored from this computer's safety copy: Olive, Basil, Sage.",
    );
    await expectNoAxeViolations(page);
    await shoot(page, 'diagnostics-storage');
  });
});

test.describe('no key yet', () => {
  test.use({ viewport: { width: 1200, height: 760 }, storeKey: false });

  test('the key prompt', async ({ app }) => {
    const { page } = app;
    await expect(page.getByRole('region', { name: 'API key needed' })).toContainText('No key is saved for Local demo.');
    await expect(page.getByTestId('list-status')).toContainText('needs a valid API key');
    await expectNoAxeViolations(page);
    await shoot(page, 'key-needed');
  });
});

test.describe('rate-limited', () => {
  test.use({
    viewport: { width: 1200, height: 760 },
    serviceOptions: { seedAnimals: 30, plan: 'enterprise:3:1000', minuteMs: 20_000 },
  });

  test('the paused meter', async ({ app }) => {
    const { page, service } = app;
    await expectListLoaded(page);
    await spendRequests(service, 2);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('status', { name: 'Rate limit' })).toContainText('Paused');
    await expectNoAxeViolations(page);
    await shoot(page, 'rate-limited');
  });
});
