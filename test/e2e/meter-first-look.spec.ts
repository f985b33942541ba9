/**
 * The rate meter's first look at the core (issue 10, item 7: each state says only what is known).
 * The CI run of 974213d (2026-11-27) saw the meter read "not measured yet" with the window known:
 * the page's first look at the governor was read before the list's answer and arrived after the
 * snapshot that answer pushed, which it overwrote (src/diagnostics/governor.svelte.ts).
 *
 * What the meter must show is the service's last answer as the log has it when the meter is read:
 * the CI run of c3ff020 read the log after Refresh when its last line said 58, then one more
 * request was answered (57) and the meter rightly showed 57 throughout, which the test, holding
 * on to 58, took for a failure. A stale first look would show more left, or nothing measured.
 */
import { readRequestLog } from '../service/index';
import { expect, test } from './fixtures';
import { expectListLoaded } from './renderer-helpers';

test.use({ serviceOptions: { seedAnimals: 5 } });

test('the meter shows the service’s last answer when the page’s first look at the governor arrives after it', async ({
  app,
}) => {
  const { page, service } = app;
  await expectListLoaded(page);
  let lookRead!: () => void;
  const read = new Promise<void>((resolve) => (lookRead = resolve));
  let handOver!: () => Promise<void>;
  await page.route('**/api/governorSnapshot', async (route) => {
    // read now; Node does not resolve the page's *.localhost name, so the same request goes to the loopback address
    const url = new URL(route.request().url());
    const headers = { ...route.request().headers(), host: url.host };
    url.hostname = '127.0.0.1';
    const response = await route.fetch({ url: url.href, headers });
    handOver = () => route.fulfill({ response });
    lookRead();
  });
  await page.reload();
  await read;
  await expectListLoaded(page);
  const before = (await readRequestLog(service.logFile)).length;
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(async () => (await readRequestLog(service.logFile)).length).toBeGreaterThan(before);
  const meter = page.getByRole('status', { name: 'Rate limit' });
  // the meter against the log's last answer, both read again on each poll
  const showsLastAnswer = async () => {
    const remaining = (await readRequestLog(service.logFile)).at(-1)!.rateLimitRemaining;
    const text = (await meter.textContent()) ?? '';
    return text.includes(`${remaining} / 60 left`) ? 'the last answer' : `"${text.trim()}", the log ${remaining} left`;
  };
  await expect.poll(showsLastAnswer).toBe('the last answer');
  const answered = page.waitForResponse('**/api/governorSnapshot');
  await handOver();
  await answered;
  // the look's answer is in the page: one turn of its event loop later, the meter shows what it keeps
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  await expect.poll(showsLastAnswer, { timeout: 1000 }).toBe('the last answer');
});
