/**
 * An outbox row the app cannot read (it fails the schema) is moved aside, never dropped, and
 * shown to staff with why, when and its data, which they can copy.
 */
import { expect, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test('a damaged outbox row is shown under "Set aside" with its reason and data to copy', async ({ app }) => {
  const { page } = app;
  await expectListLoaded(page);
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('adoption-desk.local');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction('outbox', 'readwrite');
      // Written by hand (or another version of the app): no valid idempotency key, an unknown state.
      tx.objectStore('outbox').put({
        localId: 'damaged-1',
        idempotencyKey: 'not-a-uuid',
        animal: { name: 'Biscuit', categoryId: '4' },
        state: 'lost',
        seq: 999,
      });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  });
  await page.reload();

  const setAside = page.getByRole('region', { name: 'Set aside: records that could not be read' });
  await expect(setAside).toBeVisible();
  const record = setAside.getByRole('listitem', { name: 'Set-aside record outbox:damaged-1' });
  await expect(record).toContainText('Biscuit, category 4 · set aside at');
  await record.getByText('Why it could not be read').click();
  await expect(record.getByText(/Why: .*idempotencyKey/)).toBeVisible();
  await expect(record.getByLabel('Data of outbox:damaged-1')).toContainText('"name": "Biscuit"');
  await record.getByRole('button', { name: 'Copy data' }).click();
  await expect(record.getByRole('status')).toContainText(/Copied to the clipboard|select the text and copy it/);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath('set-aside.png'), fullPage: true });
});
