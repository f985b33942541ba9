/** What the browser itself does to the site's storage, through Chromium's DevTools protocol. */
import { expect, type Page } from '@playwright/test';

/**
 * Chromium deletes the IndexedDB of the page's origin, under the open page. The proof that it did
 * is a database of the test's own beside the app's (the app may at once open its own again).
 */
export async function browserClearsIndexedDb(page: Page): Promise<void> {
  const names = () => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('test-clear-probe');
        request.onsuccess = () => {
          request.result.close();
          resolve();
        };
        request.onerror = () => reject(request.error);
      }),
  );
  expect(await names()).toContain('test-clear-probe');
  const cdp = await page.context().newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
  await cdp.detach();
  expect(await names()).not.toContain('test-clear-probe');
}
