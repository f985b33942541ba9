// ids above 2^53 stay exact end to end: service → core → host API → screen and IndexedDB.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded } from './renderer-helpers';

const FIRST_ID = '9007199254740993'; // 2^53 + 1: JSON.parse would turn it into …992

test.use({ serviceOptions: { seedAnimals: 3, idStart: FIRST_ID } });

/** Every animal record the renderer stored for a profile, read raw from IndexedDB. */
async function storedIds(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('adoption-desk.local');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows = await new Promise<Array<{ id: unknown; animal: { id: unknown; categoryId: unknown } }>>(
      (resolve, reject) => {
        const request = db.transaction('animals').objectStore('animals').getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      },
    );
    db.close();
    return rows.flatMap((row) => [String(row.id), String(row.animal.id), String(row.animal.categoryId)]);
  });
}

test('ids and category ids above 2^53 are shown and stored with every digit', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  // Polled: "Updated" is written before the virtual list has measured its box and drawn its
  // rows, one frame or, on a busy machine, several (CI once read the rows in between).
  const rowIds = () =>
    page.getByTestId('animal-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')).sort());
  await expect.poll(rowIds).toEqual(['9007199254740993', '9007199254740994', '9007199254740995']);
  await expect(page.getByTestId('animal-row').filter({ hasText: FIRST_ID })).toHaveCount(1);

  await page.keyboard.press('Control+n');
  await addAnimal(page, 'Big Category', '9223372036854775807');
  await expect.poll(async () => (await creations(service)).map((line) => line.createdId)).toEqual(['9007199254740996']);

  await expect.poll(() => storedIds(page)).toEqual(expect.arrayContaining(['9007199254740996', '9223372036854775807']));
  const stored = await storedIds(page);
  expect(stored).toContain(FIRST_ID);
  expect(stored.some((id) => id.endsWith('992') || id.includes('e+'))).toBe(false);

  await page.goto(`${app.host.url}#/animals/9007199254740996`);
  await expect(page.getByText('9223372036854775807').first()).toBeVisible();
  await expect(page.getByText('9007199254740996').first()).toBeVisible();
});
