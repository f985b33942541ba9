/**
 * Electron (issue 21): the key staff type is kept by the main process in the operating system's
 * keychain through keytar (Secret Service on Linux, Keychain on macOS, Credential Manager on
 * Windows), bound to the profile's origin, and read back here from that same keychain (through
 * the same Electron binary, `secretStore`: on macOS a read by this Node would raise a Keychain
 * prompt, support/electron-keychain.ts); it never stays in the page.
 */
import { expect, test } from '../fixtures';

test.use({ storeKey: false });

test('Electron: a key saved in Keys and profiles is in the OS keychain, bound to the service’s origin', async ({
  app,
  secretStore,
}) => {
  const { page, service } = app;
  await expect(page.getByRole('region', { name: 'API key needed' })).toBeVisible();
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const card = page.getByRole('region', { name: 'API key', exact: true });
  await card.getByLabel('API key').fill(service.key);
  await card.getByRole('button', { name: 'Save key' }).click();
  await expect(card.getByTestId('key-state')).toHaveText('Key saved');
  await expect(card.getByLabel('API key')).toHaveValue('');

  const stored = JSON.parse((await secretStore.get('local')) ?? 'null') as {
    v: number;
    origin: string;
    key: string;
  } | null;
  expect(stored).toEqual({ v: 1, origin: new URL(service.url).origin, key: service.key });

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expect(page.getByTestId('animal-row').first()).toBeVisible();
  expect(await page.content()).not.toContain(service.key);
});
