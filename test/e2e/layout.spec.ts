/**
 * Layout (issue 10, item 8): ids never wrap (one line, the full id in a tooltip and in the
 * detail), the list box fits its rows, the key prompt is compact, the profile select is
 * named "Profile".
 */
import { expect, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

const BIG = '9223372036854775807'; // the largest int64: 19 digits
const ROW_HEIGHT = 46;

test.describe('a short list of 19-digit ids', () => {
  test.use({
    viewport: { width: 1000, height: 760 },
    serviceOptions: { seedAnimals: 3, idStart: '9223372036854775000' },
  });

  test('ids stay on one line with the full id in a tooltip, and the list box fits its rows', async ({ app }) => {
    const { page, service } = app;
    await expectListLoaded(page);
    const created = await fetch(`${service.url}/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${service.key}`, 'Content-Type': 'application/json' },
      body: `{"name":"Long Category","categoryId":${BIG},"status":"available"}`,
    });
    expect(created.status).toBe(201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.getByTestId('animal-row');
    await expect(rows).toHaveCount(4);

    const row = rows.filter({ hasText: 'Long Category' });
    const category = row.getByTitle(`Category ID ${BIG}`);
    await expect(category).toBeVisible();
    const id = (await row.getAttribute('data-id'))!;
    expect(id).toHaveLength(19);
    await expect(row.getByTitle(`ID ${id}`)).toBeVisible();
    for (const cell of [category, row.getByTitle(`ID ${id}`)]) {
      const lines = await cell.evaluate((el) => el.getClientRects().length);
      const box = (await cell.boundingBox())!;
      const lineHeight = await cell.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
      expect(lines).toBe(1);
      expect(box.height).toBeLessThanOrEqual(lineHeight + 1);
    }
    for (const box of await rows.evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height))) {
      expect(box).toBeLessThanOrEqual(ROW_HEIGHT);
    }

    // The bordered list box is as tall as its four rows, not the rest of the window.
    const list = (await page.getByTestId('animal-rows').boundingBox())!;
    expect(list.height).toBeLessThanOrEqual(4 * ROW_HEIGHT + 4);
    expect(list.height).toBeGreaterThanOrEqual(4 * ROW_HEIGHT);
    await expectNoAxeViolations(page);

    // The detail shows the whole id and category.
    await row.click();
    await expect(page.getByTestId('animal-detail')).toContainText(id);
    await expect(page.getByTestId('animal-detail')).toContainText(BIG);
  });
});

test.describe('with no key saved', () => {
  test.use({ storeKey: false, viewport: { width: 1200, height: 760 } });

  test('the key prompt is compact and the list heading and controls stay on screen', async ({ app }) => {
    const { page } = app;
    const prompt = page.getByRole('region', { name: 'API key needed' });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByLabel('API key')).toBeVisible();
    await expect(prompt.getByRole('button', { name: 'Save key' })).toBeVisible();
    const box = (await prompt.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(110);
    await expect(page.getByRole('heading', { name: 'Animals', level: 2 })).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel('Status', { exact: true })).toBeInViewport({ ratio: 1 });
    await expectNoAxeViolations(page);
  });
});

test('the profile select is named "Profile"', async ({ app }) => {
  const { page } = app;
  await expectListLoaded(page);
  const select = page.getByLabel('Profile', { exact: true });
  await expect(select).toHaveCount(1);
  await expect(select).toHaveAccessibleName('Profile');
  await expect(select).toHaveValue('local');
  await expect(page.getByRole('combobox', { name: 'Profile', exact: true })).toHaveCount(1);
});
