/**
 * Smoke test of the whole app in Chromium through the browser host against the local
 * service: it starts on the Local demo profile and shows that profile's animals.
 */
import { expect, serviceAnimalNames, test } from './fixtures';

test('the app starts on the Local demo profile and shows its animals', async ({ app }) => {
  const { page, service } = app;
  await expect(page).toHaveTitle('Adoption Desk');
  await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');

  const names = await serviceAnimalNames(service, 5);
  expect(names).toHaveLength(5);
  for (const name of names) {
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  }
  expect(app.consoleErrors).toEqual([]);
});

test('the page talks to the core only through the token-protected bridge', async ({ app }) => {
  const { page, host } = app;
  const token = await page.locator('meta[name="adoption-host-token"]').getAttribute('content');
  expect(token).toBe(host.token);
  const refused = await page.evaluate(async () => {
    const response = await fetch('/bridge/listProfiles', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    return response.status;
  });
  expect(refused).toBe(403);
});
