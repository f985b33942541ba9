/**
 * Electron (issue 21): the built app starts on the Local demo profile and shows its animals, in a
 * window whose page has the preload's `window.adoption` and nothing of Node. Runs in the Electron
 * project only (playwright.electron.config.ts), skipped with the reason where Electron is missing.
 */
import { expect, serviceAnimalNames, test } from '../fixtures';
import { message } from '../support/language';

test('Electron: the app starts on the Local demo profile and shows its animals', async ({ app }) => {
  const { page, service, consoleErrors } = app;
  await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');
  for (const name of await serviceAnimalNames(service)) {
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  }
  const seen = await page.evaluate(() => ({
    host: (window as unknown as { adoption?: { host: string } }).adoption?.host,
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
    isolated: typeof (window as unknown as { ipcRenderer?: unknown }).ipcRenderer,
  }));
  // Context isolation, sandbox, no Node integration (electron/main/window.ts): the page has the API, nothing raw.
  expect(seen).toEqual({ host: 'electron', require: 'undefined', process: 'undefined', isolated: 'undefined' });
  expect(consoleErrors).toEqual([]);
});

test('Electron: Diagnostics says the outbox is kept (persistent-storage granted to the app page)', async ({ app }) => {
  const { page } = app;
  // navigator.storage.persist() asks for `persistent-storage`, granted to the app's own page
  // (electron/main/permissions.ts); Electron never evicts an origin's storage, so "kept" is true.
  await page.getByRole('link', { name: 'Diagnostics', exact: true }).click();
  await expect(page.getByTestId('storage-persistence')).toHaveText(
    message('en', 'diagnostics.storagePersistence', { persistence: message('en', 'storage.persistenceKept') }),
  );
});
