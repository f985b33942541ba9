/**
 * Issue 22: behind the organisation's proxy (a real tinyproxy that asks for a login), with the
 * service at an https:// address (support/org-proxy.ts). Staff are told which proxy wants a login
 * and where to enter it; what they add meanwhile waits, nothing is lost; once the login is saved
 * (in the keychain) the queue goes through the proxy's CONNECT tunnel, as its own log shows, and
 * reaches the service exactly once.
 */
import { expect } from './fixtures';
import { addAnimal, creations } from './renderer-helpers';
import { orgProxyTest as test, orgProxyUnavailable, PROXY_LOGIN as LOGIN, tunnelTarget } from './support/org-proxy';

test.skip(orgProxyUnavailable() !== null, orgProxyUnavailable() ?? '');
test.use({ serviceOptions: { seedAnimals: 4 } });

test('a proxy that asks for a login: staff are told where, the queue waits, and with the login it goes through', async ({
  app,
  orgProxy: proxy,
}) => {
  test.setTimeout(60_000);
  const { page, service } = app;
  const asks = `The proxy at ${proxy.address} asks for a login. Enter it in Keys and profiles, under "Proxy login".`;
  await expect(page.getByTestId('list-status')).toContainText(asks);

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Behind the proxy', '6');
  await expect(page.getByTestId('queued-row')).toContainText('Behind the proxy');
  expect(await creations(service)).toHaveLength(0);

  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const card = page.getByRole('region', { name: 'Proxy login' });
  await expect(card.getByRole('status')).toHaveText(`The proxy at ${proxy.address} asks for a login.`);
  await expect(card.getByLabel('Proxy (host:port)')).toHaveValue(proxy.address);
  await card.getByLabel('User name').fill(LOGIN.username);
  await card.getByLabel('Password').fill(LOGIN.password);
  await card.getByRole('button', { name: 'Save proxy login' }).click();
  await expect(card.getByText(`Proxy login saved for ${proxy.address}.`)).toBeVisible();
  // No proxy asks any more: the form closes (with the password it held), the saved login is listed.
  await expect(card.getByLabel('Password')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Add a proxy login' })).toBeVisible();
  await expect(card.getByText(`${proxy.address}: login saved for shelter`)).toBeVisible();

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expect(page.getByTestId('animal-row').filter({ hasText: 'Behind the proxy' })).toContainText(/ID\s*\d+/, {
    timeout: 30_000,
  });
  expect(await creations(service)).toHaveLength(1);
  // through the tunnel: the proxy saw where, never what (no path, no key)
  expect(new Set(await proxy.requests())).toEqual(new Set([`CONNECT ${tunnelTarget(service)} HTTP/1.1`]));
  // The password never reaches the page.
  expect(await page.content()).not.toContain(LOGIN.password);
});
