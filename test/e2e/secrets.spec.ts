import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';

/** Every record of every IndexedDB database of the page, as JSON. */
async function dumpIndexedDb(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: Record<string, unknown> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(info.name!);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        out[`${info.name}/${store}`] = await new Promise((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      }
      db.close();
    }
    return JSON.stringify(out);
  });
}

test('the key never appears in the DOM, IndexedDB, localStorage or the console', async ({ app }) => {
  const { page, service } = app;
  const consoleText: string[] = [];
  page.on('console', (message) => consoleText.push(message.text()));
  await expectListLoaded(page);

  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await expect(page.getByTestId('key-state')).toHaveText('Key saved');
  await page.getByLabel('Replace the API key').fill(service.key);
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('Key saved.')).toBeVisible();
  await expect(page.getByLabel('Replace the API key')).toHaveValue('');
  await page.getByRole('button', { name: 'Test key' }).click();
  await expect(page.getByTestId('key-test')).toHaveText('The service accepted the key.');

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Secretive', '4');
  await page.getByRole('link', { name: 'Diagnostics' }).click();
  await expect(page.getByRole('region', { name: 'Request log' })).toContainText('/pets');

  const dom = await page.content();
  const storage = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  const indexedDb = await dumpIndexedDb(page);
  expect(indexedDb).toContain('Secretive');
  for (const [where, text] of Object.entries({ dom, storage, indexedDb, console: consoleText.join('\n') })) {
    expect(text.includes(service.key), `the key appears in ${where}`).toBe(false);
  }
});
