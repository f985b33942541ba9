/**
 * Issue 22: text that turns itself around. An animal name from the service with a right-to-left
 * override (U+202E) is shown as it is, but isolated (`<bdi>`: `unicode-bidi: isolate`), so it
 * cannot reverse the words around it; a category name with one is refused.
 */
import { expect, test } from './fixtures';
import { expectListLoaded } from './renderer-helpers';
import { createOnService } from './support/toolkit';

const TURNING = 'Max\u202e (category 9) pending';

test.use({ serviceOptions: { seedAnimals: 2 } });

test('service text with a bidi override is isolated wherever it is shown; a category name with one is refused', async ({
  app,
}) => {
  const { page, service } = app;
  const animal = await createOnService(service, { name: TURNING, categoryId: '3', status: 'available' });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expectListLoaded(page);
  const row = page.getByTestId('animal-row').filter({ hasText: 'Max' });
  await expect(row.locator('bdi')).toHaveText(TURNING);
  await expect(row.locator('bdi')).toHaveCSS('unicode-bidi', 'isolate');

  await row.click();
  await expect(page.getByRole('heading', { level: 2 }).locator('bdi')).toHaveText(TURNING);
  await expect(page.getByRole('heading', { level: 2 }).locator('bdi')).toHaveCSS('unicode-bidi', 'isolate');
  expect(animal.id).toBeTruthy();

  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const form = page.getByRole('form', { name: 'Name a category' });
  await form.getByLabel('Category ID').fill('5');
  await form.getByLabel('Category name').fill('Cats\u202etxt.exe');
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('alert')).toContainText('changes the direction of text');
});
