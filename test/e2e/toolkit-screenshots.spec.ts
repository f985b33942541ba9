/**
 * Screenshots of the event toolkit for the README (the import preview and the print view), with
 * axe on both. An ordinary run saves them with the test's output; `UPDATE_SCREENSHOTS=1` writes
 * docs/screenshots/import-preview.png and print-view.png.
 */
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { nameCategory, serviceList, upload } from './support/toolkit';

const README_SHOTS = resolve(import.meta.dirname, '../../docs/screenshots');

async function shoot(page: Page, name: string): Promise<void> {
  const path = process.env.UPDATE_SCREENSHOTS
    ? resolve(README_SHOTS, `${name}.png`)
    : test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
}

test.use({ viewport: { width: 1200, height: 1050 }, serviceOptions: { seedAnimals: 40 } });

test('import preview and print view', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  for (const [id, name] of [
    ['1', 'Dogs'],
    ['2', 'Cats'],
    ['3', 'Rabbits'],
    ['4', 'Birds'],
    ['5', 'Small mammals'],
  ] as const) {
    await nameCategory(page, id, name);
  }
  await expectNoAxeViolations(page);
  // For review only (not in the README): the category names card.
  await page.getByRole('heading', { name: 'Category names' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('category-names.png') });
  const [known] = await serviceList(service, 'limit=1');
  if (!known) throw new Error('the service has no animal');

  await page.getByRole('link', { name: 'Import', exact: true }).click();
  const csv = [
    'name;category;status',
    'Waffles;Dogs;available',
    'Noodle;2;available',
    'Pip;Rabbits;',
    `${known.name};${known.categoryId};available`,
    'Clover;Hamsters;available',
    'Sunny;Birds;pending',
    ';2;',
    '=HYPERLINK("http://x");1;',
    'Bean;5;adopted',
    'Mango;Cats;available',
  ].join('\n');
  await page.getByLabel('Spreadsheet file (.csv)').setInputFiles(upload('adoption-day.csv', csv));
  await expect(page.getByTestId('import-row')).toHaveCount(10);
  await expectNoAxeViolations(page);
  await shoot(page, 'import-preview');

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await page.getByLabel('Status').selectOption('available');
  await expectListLoaded(page);
  await page.getByRole('button', { name: 'Print list' }).click();
  await expect(page.getByTestId('print-row').first()).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, 'print-view');
  await page.emulateMedia({ media: 'print' });
  await shoot(page, 'print-view-paper');
});
