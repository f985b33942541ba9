/**
 * Faults (issue 7 part 2): 200 creations against a service with
 * `500:0.1,503:0.05,reset-before:0.05,reset-after:0.05,stall:0.02` and 5–40 ms latency (seed
 * fixed). All land exactly once; while the queue drains the list view stays usable (filter,
 * search) and shows what is going on ("Sending N of 200", the queued rows).
 *
 * Time: the core's HTTP timeouts are shortened (coreOptions) so a stall costs 1.5 s instead
 * of 15 s, and the page runs on Playwright's clock, fast-forwarded while we wait, so the sync
 * engine's 2 s, 4 s, … retry waits, and the minute a doubt waits after a stall (SEND_SETTLES_MS:
 * the service may still store what it was slow with), do not make the suite take minutes. The
 * core's own hold of a stalled creation (a minute on its real clock, which the page clock cannot
 * skip) is shortened to 5 s (coreOptions `sendSettlesMs`): that entry alone waits, answered
 * `settling`, while the rest of the queue goes on (a hold that answered the timeout again
 * stopped the whole queue here: 65 waiting, "Offline"). Nothing sleeps.
 */
import type { Page } from '@playwright/test';
import { loadDataFile, readRequestLog } from '../service/index';
import { expect, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';
import { readOutbox } from './support/crash-scenario';
import { categoryFor, queueThroughForm } from './support/queue-through-form';

const COUNT = 200;
const FAULTS = '500:0.1,503:0.05,reset-before:0.05,reset-after:0.05,stall:0.02';

test.use({
  serviceOptions: { seedAnimals: 30, plan: 'enterprise:100000:1000000', faults: FAULTS, latencyMs: '5..40', seed: 7 },
  coreOptions: { http: { headersTimeoutMs: 1_500, totalTimeoutMs: 3_000 }, sendSettlesMs: 5_000 },
});

async function sentCount(page: Page): Promise<number> {
  return (await readOutbox(page)).filter((row) => row.state === 'sent').length;
}

test('200 creations through 500/503/resets/stalls land exactly once; the list stays usable', async ({
  page,
  service,
  host,
}) => {
  // Room for a busy machine: the drain's real-time part (requests, the 1.5 s stalls) slows with
  // the load; what is asserted is that every creation lands once, not how fast.
  test.setTimeout(300_000);
  const started = Date.now();
  await page.clock.install();
  await page.goto(host.launchUrl());
  await expectListLoaded(page);
  const names = Array.from({ length: COUNT }, (_, i) => `Faulty-${String(i + 1).padStart(3, '0')}`);

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  for (const [i, name] of names.slice(0, 3).entries()) await addAnimal(page, name, categoryFor(i));
  await queueThroughForm(
    page,
    names.slice(3).map((name, i) => ({ name, categoryId: categoryFor(i + 3) })),
  );

  // While it drains: the list shows the progress and the queue, and filter and search work.
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expectListLoaded(page);
  const progress = page.getByTestId('sync-progress');
  // A drain counts what was pending when it began plus what was added since (the first few
  // may have gone out before the rest were typed), so the total is close to 200.
  await expect(progress).toContainText(/Sending \d+ of (19\d|200)\b/);
  await expect(page.getByTestId('sync-indicator')).toContainText(/sending \d+ of (19\d|200)\b/);
  await expect(page.getByTestId('queued-row').first()).toBeVisible();
  const rows = page.getByTestId('animal-row');
  await page.getByLabel('Status', { exact: true }).selectOption('sold');
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row).toContainText('sold');
  await page.getByLabel('Status', { exact: true }).selectOption('all');
  await expect(rows.first()).toBeVisible();
  const firstName = (await rows.first().locator('.animal-row__name').textContent())?.trim() ?? '';
  await page.getByRole('searchbox').fill(firstName);
  await expect(rows.filter({ hasText: firstName }).first()).toBeVisible();
  await page.getByRole('searchbox').fill('');
  const earlier = await sentCount(page);
  const checkedAt = Date.now();
  expect(earlier).toBeLessThan(COUNT);

  // Let it finish, skipping the engine's retry waits on the page clock; a failed try shows
  // when the next one comes. A creation stored but unanswered (reset-after) is in doubt: until
  // the service has shown that it keeps keys, staff are asked, and answer "send mine" (the
  // same key: the service replays the stored animal, which proves it keeps keys).
  let sawRetryNotice = false;
  let questions = 0;
  await expect
    .poll(
      async () => {
        sawRetryNotice ||= await page.getByTestId('sync-retry').isVisible();
        const check = page.getByTestId('check-entry').first();
        if (await check.isVisible()) {
          await check.getByRole('button', { name: /^Send mine/ }).click();
          questions += 1;
        }
        await page.clock.fastForward(5_000);
        return sentCount(page);
      },
      { timeout: 270_000, intervals: [100] },
    )
    .toBe(COUNT);
  expect(sawRetryNotice).toBe(true);
  await expect(page.getByTestId('queued-row')).toHaveCount(0);
  await expect(page.getByTestId('attention-entry')).toHaveCount(0);
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent');

  // Exactly once each on the service, and the faults really happened.
  const data = await loadDataFile(service.running.dataFile ?? '');
  const perName = new Map<string, number>();
  for (const animal of data?.animals ?? []) perName.set(animal.name, (perName.get(animal.name) ?? 0) + 1);
  expect(names.filter((name) => perName.get(name) !== 1)).toEqual([]);
  expect(data?.animals).toHaveLength(COUNT + 30);
  const log = await readRequestLog(service.logFile);
  const created = log.filter((line) => line.createdId !== null && line.method === 'POST');
  const perKey = new Map<string, number>();
  for (const line of created) perKey.set(line.idempotencyKey ?? '', (perKey.get(line.idempotencyKey ?? '') ?? 0) + 1);
  expect(created).toHaveLength(COUNT);
  expect([...perKey.values()].every((n) => n === 1)).toBe(true);
  const faults = new Set(log.map((line) => line.fault).filter(Boolean));
  expect([...faults].sort()).toEqual(['500', '503', 'reset-after', 'reset-before', 'stall']);
  // Once the service had replayed a key, later doubts were settled without asking.
  const storedUnanswered = created.filter((line) => line.fault === 'reset-after').length;
  expect(questions).toBeLessThan(Math.max(2, storedUnanswered));
  const outbox = await readOutbox(page);
  expect(new Set(outbox.map((row) => row.serverId)).size).toBe(COUNT);
  expect(new Set(outbox.map((row) => row.name))).toEqual(new Set(names));
  console.log(
    `faults: ${COUNT} created once each; ${log.length} requests, ` +
      `${log.filter((l) => l.fault).length} faulted (${[...faults].join(', ')}), ${storedUnanswered} stored unanswered, ` +
      `${questions} question(s) to staff; ${earlier} sent when the list was checked ` +
      `(${checkedAt - started} ms in), all sent after ${Date.now() - started} ms`,
  );
});
