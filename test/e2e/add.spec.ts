import { expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test('Ctrl+N opens the form; inline validation; Enter adds online and the form resets', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.keyboard.press('Control+n');
  await expect(page).toHaveURL(/#\/animals\/new$/);
  const form = page.getByRole('form', { name: 'Add an animal' });
  await expect(form.getByLabel(/^Name/)).toBeFocused();

  await form.getByLabel(/^Category ID/).fill('1.5');
  await form.getByLabel(/^Category ID/).press('Enter');
  await expect(page.getByText('Name is required.')).toBeVisible();
  await expect(page.getByText('Category ID must be a whole number, such as 3.')).toBeVisible();
  await expectNoAxeViolations(page);

  await addAnimal(page, 'Pickle', '9223372036854775807');
  await expect(form.getByLabel(/^Name/)).toHaveValue('');
  await expect(form.getByLabel(/^Name/)).toBeFocused();
  await addAnimal(page, 'Mango', '2');
  await expect.poll(async () => (await creations(service)).length).toBe(2);
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent');

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  // The row whose name is exactly "Pickle" (not any name containing it, however many rows are drawn).
  const pickle = page.getByTestId('animal-row').filter({ has: page.getByText('Pickle', { exact: true }) });
  await expect(pickle).toContainText('9223372036854775807');
});

test('offline: queued, survives a reload, then sent once per idempotency key when the service is back', async ({
  app,
}) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await service.stop();
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  for (const name of ['Olive', 'Basil', 'Sage']) await addAnimal(page, name, '7');
  await expect(page.getByTestId('queued-row')).toHaveCount(3);
  await expect(page.getByTestId('queued-row').first()).toContainText('waiting to send');

  await page.reload();
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expect(page.getByTestId('queued-row')).toHaveCount(3);
  await expect(page.getByTestId('queued-row').nth(0)).toContainText('Olive');
  await expect(page.getByTestId('queued-row').nth(2)).toContainText('Sage');
  await expect(page.getByTestId('sync-indicator')).toContainText('3 waiting to send');

  await service.restart();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('queued-row')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
  const created = await creations(service);
  expect(created).toHaveLength(3);
  const keys = created.map((line) => line.idempotencyKey);
  expect(keys.every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
  expect(new Set(keys).size).toBe(3);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('animal-row').filter({ hasText: 'Sage' })).toBeVisible();
});
