import { expect, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';

test('store orders are shown as the raw JSON the service returned, clearly labelled', async ({ app }) => {
  const { page } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Store orders' }).click();
  await expect(page.getByRole('heading', { name: 'Store orders (read-only)' })).toBeVisible();
  await expect(page.getByText('exactly the JSON it returned')).toBeVisible();
  const raw = page.getByRole('region', { name: 'Orders as returned by the service' });
  await expect(raw).toBeVisible();
  const text = (await raw.textContent()) ?? '';
  expect(() => JSON.parse(text)).not.toThrow();
});

test('diagnostics list the requests with their idempotency keys and copy without the key', async ({ app, context }) => {
  const { page, service } = app;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Traceable', '8');
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
  await page.getByRole('link', { name: 'Diagnostics' }).click();
  const log = page.getByRole('region', { name: 'Request log' });
  const post = log.getByRole('row').filter({ hasText: 'POST' }).first();
  await expect(post).toContainText('/pets');
  await expect(post).toContainText('201');
  await expect(post).toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  await page.getByRole('button', { name: 'Copy diagnostics' }).click();
  await expect(page.getByText(/Copied \d+ requests to the clipboard|select the text below/)).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText().catch(() => ''));
  const text =
    copied ||
    ((await page
      .getByLabel('Diagnostics to copy')
      .inputValue()
      .catch(() => '')) ??
      '');
  expect(text).toContain('"method": "POST"');
  expect(text.includes(service.key)).toBe(false);
});

test('everything is reachable from the keyboard, with a visible focus ring', async ({ app }) => {
  const { page } = app;
  await expectListLoaded(page);
  await page.keyboard.press('Tab');
  const focused = page.locator(':focus');
  await expect(focused).toHaveAccessibleName('Profile');
  const outline = await focused.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  for (let i = 0; i < 10; i += 1) {
    if ((await focused.textContent())?.trim() === 'Keys and profiles') break;
    await page.keyboard.press('Tab');
  }
  await expect(focused).toHaveText('Keys and profiles');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/profiles$/);
  await expect(page.getByRole('heading', { name: 'Keys and profiles' })).toBeVisible();
});
