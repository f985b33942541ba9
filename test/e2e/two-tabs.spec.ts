/**
 * Two windows of one profile (issue 14, data safety 3): two tabs of one host, 10 animals
 * entered in each, a service that ignores Idempotency-Key and answers slowly. Exactly one
 * sync engine sends (Web Locks); every animal reaches the service exactly once, and the tab
 * that does not send shows the other's progress truthfully.
 */
import { loadDataFile, readRequestLog } from '../service/index';
import { expect, test } from './fixtures';
import { expectListLoaded } from './renderer-helpers';
import { readOutbox } from './support/crash-scenario';
import { openHost } from './support/devices';
import { categoryFor, queueThroughForm } from './support/queue-through-form';

test.use({
  serviceOptions: { seedAnimals: 0, idempotency: false, latencyMs: '40..90', plan: 'enterprise:100000:1000000' },
});

test('20 animals entered in two tabs of one profile are each created exactly once', async ({ app }) => {
  test.setTimeout(120_000);
  const first = app.page;
  const second = await first.context().newPage();
  await openHost(second, app.host);
  for (const tab of [first, second]) {
    await expectListLoaded(tab);
    await tab.getByRole('link', { name: 'Add animal', exact: true }).click();
  }
  const names = (tab: string) => Array.from({ length: 10 }, (_, i) => `${tab}-${i + 1}`);
  const queue = (tab: string) => names(tab).map((name, i) => ({ name, categoryId: categoryFor(i) }));

  await Promise.all([queueThroughForm(first, queue('First')), queueThroughForm(second, queue('Second'))]);
  // While the queue drains, both tabs say what is going on (only one of them sends).
  for (const tab of [first, second]) {
    await expect(tab.getByTestId('sync-indicator')).toContainText(/sending \d+ of \d+|waiting to send|all sent/);
  }

  await expect.poll(async () => (await readOutbox(first)).filter((row) => row.state === 'sent').length).toBe(20);
  for (const tab of [first, second]) {
    await expect(tab.getByTestId('sync-indicator')).toContainText('all sent');
    await expect(tab.getByTestId('queued-row')).toHaveCount(0);
  }

  const data = await loadDataFile(app.service.running.dataFile ?? '');
  const perName = new Map<string, number>();
  for (const animal of data?.animals ?? []) perName.set(animal.name, (perName.get(animal.name) ?? 0) + 1);
  const expected = [...names('First'), ...names('Second')];
  expect(expected.filter((name) => perName.get(name) !== 1)).toEqual([]);
  expect(data?.animals).toHaveLength(20);
  const created = (await readRequestLog(app.service.logFile)).filter((line) => line.createdId !== null);
  expect(created).toHaveLength(20);
  expect(new Set(created.map((line) => line.idempotencyKey)).size).toBe(20);
});

test('the tab that does not send shows the progress of the one that does', async ({ app }) => {
  test.setTimeout(120_000);
  const first = app.page;
  await expectListLoaded(first);
  const second = await first.context().newPage();
  await openHost(second, app.host);
  await expectListLoaded(second);
  // Hold the service back so the drain is visibly under way in both tabs.
  await app.service.stop();
  await second.getByRole('link', { name: 'Add animal', exact: true }).click();
  await queueThroughForm(
    second,
    Array.from({ length: 6 }, (_, i) => ({ name: `Held-${i + 1}`, categoryId: categoryFor(i) })),
  );
  for (const tab of [first, second]) {
    await expect(tab.getByTestId('sync-indicator')).toContainText('6 waiting to send');
  }
  await app.service.restart();
  for (const tab of [first, second]) {
    await tab.getByRole('link', { name: 'Animals', exact: true }).click();
    await expectListLoaded(tab); // a successful call: the app is back online
  }
  for (const tab of [first, second]) {
    await expect(tab.getByTestId('sync-indicator')).toContainText('all sent', { timeout: 20_000 });
    await expect(tab.getByTestId('all-sent')).toContainText('All waiting animals were sent');
  }
  expect(app.service.running.animalCount()).toBe(6);
});
