/**
 * Issue 10, item 7: each state says only what is known. A profile with no address says so
 * and nothing else; after a reload with the service down nothing says "Online" before
 * anything was tried; the Add form's message expires when it stops being true; progress
 * counts the whole batch.
 */
import { readFile } from 'node:fs/promises';
import { expect, spendRequests, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';
import { categoryFor, queueThroughForm } from './support/queue-through-form';

test.use({ serviceOptions: { seedAnimals: 5 } });

test('a profile with no service address says so, and not "no animals match" or "Online · all sent"', async ({
  app,
}) => {
  const { page } = app;
  await expectListLoaded(page);
  await page.getByLabel('Profile', { exact: true }).selectOption({ label: 'Production (production)' });
  await expect(page.getByTestId('active-profile-name')).toHaveText('Production');
  await expect(page.getByText('This profile has no service address yet.')).toBeVisible();
  await expect(page.getByText('No animals match this filter.')).toHaveCount(0);
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toContainText('No service address');
  await expect(indicator).not.toContainText('Online');
  await expect(indicator).not.toContainText('all sent');
});

test('after a reload with the service down, nothing says "Online" before anything was tried', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await service.stop();
  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await page.reload();
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toContainText('Not checked yet');
  await expect(indicator).not.toContainText('Online');

  // Something is tried (the list): now it is known.
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expect(indicator).toContainText('Offline', { timeout: 30_000 });
  await expect(indicator).not.toContainText('Online');
});

test('a one-minute window never reads as more than a minute on the meter', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  // The window opened with the service's first request (the Free plan: 60 a minute). Read the
  // meter as at that moment: the page's clock fixed to the request's arrival in the service's log.
  const lines = (await readFile(service.logFile, 'utf8')).trim().split('\n');
  const first = JSON.parse(lines[0]!) as { time: string };
  await page.clock.setFixedTime(new Date(first.time));
  const meter = page.getByRole('status', { name: 'Rate limit' });
  await expect(meter).toContainText(/\d+ \/ 60 left/);
  // X-RateLimit-Reset is a whole second, so it cannot tell 60 s from 61 s.
  await expect(meter).toContainText('resets in about 1 min');
  await expect(meter).not.toContainText(/1 min \d\d s/);
});

test('the Add form says an animal was sent once it was, not that it is still waiting', async ({ app }) => {
  test.setTimeout(120_000);
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Biscuit', '3');
  const result = page.getByTestId('add-result');
  await expect(result).toContainText(/Biscuit was sent \(ID \d+\)/);

  await service.stop();
  await addAnimal(page, 'Pepper', '3');
  await expect(result).toContainText('Pepper is saved on this device and waiting to send.');
  await service.restart();
  await expect(page.getByTestId('all-sent')).toContainText('All waiting animals were sent', { timeout: 45_000 });
  await expect(result).not.toContainText('waiting to send');
  await expect(result).toContainText(/Pepper was sent \(ID \d+\)/);
});

test.describe('a batch', () => {
  // 3 requests per 20-second "minute": after the list and two more, the window is used up.
  test.use({ serviceOptions: { seedAnimals: 0, plan: 'enterprise:3:1000', minuteMs: 20_000 } });

  test('with 20 queued while the first waits for the rate limit, the indicator counts all 20', async ({ app }) => {
    test.setTimeout(120_000);
    const { page, service } = app;
    await expectListLoaded(page);
    await spendRequests(service, 2);
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await queueThroughForm(
      page,
      Array.from({ length: 20 }, (_, i) => ({ name: `Batch-${i + 1}`, categoryId: categoryFor(i) })),
    );
    const indicator = page.getByTestId('sync-indicator');
    await expect(indicator).toContainText('sending 1 of 20');
    await expect(page.getByTestId('sync-progress')).toContainText('Sending 1 of 20');
  });
});
