import { expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test('switching profiles switches the data, the queue and the meter with no mix-up', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  const band = page.getByTestId('profile-band');
  await expect(band).toContainText('LOCAL DEMO');
  await expect(page.getByRole('meter', { name: 'Requests left in this window' })).toBeVisible();
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Local Only', '1');
  await expect.poll(async () => (await creations(service)).length).toBe(1);

  // Staging has no address here: what is entered there waits in staging's own queue.
  await page.getByLabel('Profile').selectOption('staging');
  await expect(band).toContainText('STAGING');
  await expect(band).toHaveClass(/band--staging/);
  await expect(page.getByText('This profile has no service address yet.')).toBeVisible();
  await addAnimal(page, 'Staging Only', '2');
  await expect(page.getByTestId('queued-row')).toHaveCount(1);
  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await expect(page.getByText('Nothing is saved yet.')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Rate limit' })).toContainText('not measured yet');
  await expectNoAxeViolations(page);

  await page.getByLabel('Profile').selectOption('local');
  await expect(band).toContainText('LOCAL DEMO');
  await expect(page.getByTestId('queued-row')).toHaveCount(0);
  await expect(page.getByTestId('animal-row').filter({ hasText: 'Local Only' })).toBeVisible();
  await expect(page.getByTestId('animal-row').filter({ hasText: 'Staging Only' })).toHaveCount(0);

  // The choice of profile is remembered, and staging's queue is still its own after a reload.
  await page.getByLabel('Profile').selectOption('staging');
  await page.reload();
  await expect(band).toContainText('STAGING');
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await expect(page.getByTestId('queued-row')).toHaveCount(1);
  await expect(page.getByTestId('queued-row')).toContainText('Staging Only');
  expect((await creations(service)).length).toBe(1);
});
