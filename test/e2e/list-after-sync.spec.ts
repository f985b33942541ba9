/**
 * Issue 10, item 1: an animal sent from the outbox stays in the list in place of its queued
 * row, with its service id, and the list leaves "Offline" by itself as soon as the service
 * answers again. Nothing here presses Refresh.
 */
import type { Page } from '@playwright/test';
import { expect, spendRequests, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';

/** The list's row of a sent animal: its name and the id the service gave it. */
async function expectSentRow(page: Page, name: string, timeout = 10_000): Promise<void> {
  await expect(page.getByTestId('animal-row').filter({ hasText: name })).toContainText(/ID\s*\d+/, { timeout });
}

test.describe('service down, then back', () => {
  test.use({ serviceOptions: { seedAnimals: 5 } });

  test('animals queued offline and sent after a reload stay in the list, which goes back online by itself', async ({
    app,
  }) => {
    test.setTimeout(90_000);
    const { page, service } = app;
    await expectListLoaded(page);
    await service.stop();
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    for (const name of ['Olive', 'Basil', 'Sage']) await addAnimal(page, name, '7');

    await page.reload();
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expect(page.getByTestId('queued-row')).toHaveCount(3);
    // The list knows the service is down before it comes back.
    await expect(page.getByTestId('list-status')).toContainText('Offline', { timeout: 30_000 });

    await service.restart();
    for (const name of ['Olive', 'Basil', 'Sage']) await expectSentRow(page, name, 45_000);
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
    await expect(page.getByTestId('list-status')).not.toContainText('Offline');
    await expect(page.getByTestId('list-status')).toContainText('Updated');
    await expect(page.getByTestId('sync-indicator')).toContainText('Online');
  });
});

test('an animal sent once a refused key is replaced is in the list', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await page.getByLabel('Replace the API key').fill('not-the-right-key');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('Key saved.')).toBeVisible();

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Locked Out', '5');
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  const prompt = page.getByRole('region', { name: 'API key needed' });
  await expect(prompt).toContainText('The saved key was refused.');
  await expect(page.getByTestId('queued-row')).toContainText('Locked Out');

  await prompt.getByLabel('Replace the API key').fill(service.key);
  await prompt.getByRole('button', { name: 'Save key' }).click();
  await expect(prompt).toHaveCount(0);
  await expectSentRow(page, 'Locked Out');
  await expect(page.getByTestId('queued-row')).toHaveCount(0);
  await expect(page.getByTestId('list-status')).toContainText('Updated');
});

test.describe('rate-limited', () => {
  // 3 requests per 8-second "minute": the window is used up at once.
  test.use({ serviceOptions: { seedAnimals: 5, plan: 'enterprise:3:1000', minuteMs: 8000 } });

  test('both animals added during a rate-limit pause are in the list once sent', async ({ app }) => {
    test.setTimeout(120_000);
    const { page, service } = app;
    await expectListLoaded(page);
    await spendRequests(service, 2);
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await addAnimal(page, 'Pause One', '4');
    await addAnimal(page, 'Pause Two', '4');
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expectSentRow(page, 'Pause One', 40_000);
    await expectSentRow(page, 'Pause Two', 40_000);
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
  });
});
