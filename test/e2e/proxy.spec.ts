/**
 * Issue 22: behind the organisation's proxy (a real tinyproxy that asks for a login). Staff are
 * told which proxy wants a login and where to enter it; what they add meanwhile waits, nothing is
 * lost; once the login is saved (in the keychain) the queue goes through the proxy, as its own log
 * shows, and reaches the service exactly once.
 */
import { envProxyResolver } from '../../electron/core/http/proxy';
import { type RunningProxy, startProxy, tinyproxyAvailable } from '../support/tinyproxy';
import { expect, test as base } from './fixtures';
import { addAnimal, creations } from './renderer-helpers';

const LOGIN = { username: 'shelter', password: 'proxy-pass-4711' };

const test = base.extend<{ orgProxy: RunningProxy }>({
  // eslint-disable-next-line no-empty-pattern
  orgProxy: async ({}, use) => {
    const proxy = await startProxy({ login: LOGIN });
    await use(proxy);
    await proxy.stop();
  },
  coreOptions: async ({ orgProxy: proxy }, use) => {
    await use({ proxy: envProxyResolver({ HTTP_PROXY: `http://${proxy.address}` }) });
  },
});

test.use({ serviceOptions: { seedAnimals: 4 } });

test('a proxy that asks for a login: staff are told where, the queue waits, and with the login it goes through', async ({
  app,
  orgProxy: proxy,
}) => {
  test.skip(!tinyproxyAvailable(), 'tinyproxy is not installed (apt-get install -y tinyproxy)');
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
  expect(await proxy.requests()).toContain(`POST ${service.url}/pets HTTP/1.1`);
  // The password never reaches the page.
  expect(await page.content()).not.toContain(LOGIN.password);
});
