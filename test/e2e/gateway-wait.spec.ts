/**
 * Issue 10.4 / 11: behind a real nginx gateway that refuses with a bare 429 (no Retry-After,
 * no X-RateLimit-*), the meter shows that the app is holding requests, with a countdown,
 * although the limit itself is never told; a Refresh during the wait sends nothing more and
 * says so; the list comes back by itself once the gateway lets requests through again.
 */
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { expect, test } from './support/gateway-fixtures';

// One request per 10 s per key, no burst: a second request within 10 s is refused.
test.use({
  serviceOptions: { seedAnimals: 20, plan: 'pro' },
  gatewayOptions: { mode: '429', rate: '6r/m', burst: 0 },
});

test('a bare 429 from a gateway shows "Paused · resumes in N s" and Refresh during the wait sends nothing', async ({
  app,
  gateway,
}) => {
  test.setTimeout(90_000);
  const { page, service } = app;
  await expectListLoaded(page);
  // Another device of the same key takes the gateway's allowance.
  await fetch(`${service.url}/pets?limit=1`, { headers: { Authorization: `Bearer ${service.key}` } });

  await page.getByRole('button', { name: 'Refresh' }).click();
  const meter = page.getByRole('status', { name: 'Rate limit' });
  await expect(meter).toContainText('Paused');
  await expect(meter).toContainText(/resumes in \d+ s/);
  await expect(meter).not.toContainText('not measured');
  await expectNoAxeViolations(page);

  // Refresh while the list's read is held: nothing more is queued, and the screen says so.
  const before = (await gateway.readAccessLog()).length;
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('list-status')).toContainText(/already waiting/i);

  // The gateway lets the held read through in time; the list updates by itself. Its probes follow
  // the governor's pauses for a bare 429 (adaptive-rate.ts: [w, 2w), w doubling and the cut rate's
  // interval growing): the 4th probe may come up to about 35 s after the first refusal when the 3rd
  // lands just before the gateway's 10 s are over, so the wait allows 60 s.
  await expect(page.getByTestId('list-status')).not.toContainText(/already waiting/i, { timeout: 60_000 });
  await expect(page.getByTestId('list-status')).toContainText('Updated');
  await expect(meter).not.toContainText('Paused');
  const log = await gateway.readAccessLog();
  const firstRefusal = log.findIndex((line) => line.status === 429);
  expect(firstRefusal).toBeGreaterThan(-1);
  expect(log.slice(firstRefusal).some((line) => line.status === 200)).toBe(true);
  // The held read went out once per probe, never once per Refresh click: after the second
  // click, every request is a probe spaced by the growing backoff (at least 1 s apart).
  const after = log.slice(before - 1);
  for (let i = 1; i < after.length; i += 1) expect(after[i]!.at - after[i - 1]!.at).toBeGreaterThanOrEqual(900);
});
