import { readRequestLog } from '../service/index';
import { expect, spendRequests, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

// A tiny plan: 3 requests per (8-second) minute, so the limit is reached at once.
test.use({ serviceOptions: { seedAnimals: 20, plan: 'enterprise:3:1000', minuteMs: 8000 } });

test('a 429 pauses the meter with a countdown and nothing is sent during the wait', async ({ app }) => {
  test.setTimeout(90_000);
  const { page, service } = app;
  await expectListLoaded(page);
  await spendRequests(service, 2);
  await page.getByRole('button', { name: 'Refresh' }).click();
  const meter = page.getByRole('status', { name: 'Rate limit' });
  await expect(meter).toContainText('Paused');
  await expect(meter).toContainText(/resumes in \d+ s/);
  await expect(page.getByTestId('pause-countdown')).toBeVisible();
  await expectNoAxeViolations(page);

  // Asking again while paused only queues the request inside the app.
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(meter).not.toContainText('Paused', { timeout: 15_000 });
  await expectListLoaded(page);

  const log = await readRequestLog(service.logFile);
  const limited = log.findIndex((line) => line.status === 429);
  expect(limited).toBeGreaterThan(-1);
  const after = log.slice(limited + 1);
  expect(after.length).toBeGreaterThan(0);
  expect(after.filter((line) => line.toldToWait)).toEqual([]);
  const retryAfterMs = (log[limited]!.retryAfter ?? 0) * 1000;
  const first = Date.parse(after[0]!.time) - Date.parse(log[limited]!.time);
  expect(first).toBeGreaterThanOrEqual(retryAfterMs - 1000);
});
