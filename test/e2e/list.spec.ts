import { expect, serviceAnimalNames, test } from './fixtures';
import { DETAIL_REFRESH_NOW, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test.use({ serviceOptions: { seedAnimals: 60 } });

test('lists, filters by status, changes the limit, searches and sorts', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  const rows = page.getByTestId('animal-rows');
  await expect(rows).toHaveAttribute('data-count', '20');
  const [first] = await serviceAnimalNames(service, 1);
  await expect(page.getByTestId('animal-row').first()).toContainText(first!);

  await page.getByLabel('Status').selectOption('sold');
  await expect(page.getByTestId('animal-row').first().locator('.chip')).toHaveText('sold');
  const chips = await page.getByTestId('animal-row').locator('.chip').allTextContents();
  expect(new Set(chips)).toEqual(new Set(['sold']));

  await page.getByLabel('Status').selectOption('all');
  await page.getByLabel(/^Limit/).fill('5');
  await page.getByLabel(/^Limit/).press('Enter');
  await expect(rows).toHaveAttribute('data-count', '5');

  await page.getByLabel(/^Limit/).fill('101');
  await page.getByLabel(/^Limit/).press('Enter');
  await expect(page.getByText('Limit must be from 1 to 100.')).toBeVisible();

  await page.getByLabel(/^Limit/).fill('50');
  await page.getByLabel(/^Limit/).press('Enter');
  await expect(rows).toHaveAttribute('data-count', '50');
  await page.getByLabel('Sort by').selectOption('id');
  // Polled: the rows are redrawn after the choice, on a busy machine a few frames later.
  const firstThree = async () =>
    (await page.getByTestId('animal-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-id'))))
      .slice(0, 3)
      .map(Number);
  await expect
    .poll(async () => {
      const ids = await firstThree();
      return ids.every((id, i) => i === 0 || ids[i - 1]! <= id);
    })
    .toBe(true);

  const name = first!;
  await page.getByLabel('Search by name').fill(name);
  await expect(page.getByTestId('animal-row').first()).toContainText(name);
  await expectNoAxeViolations(page);
});

test('the detail is deep-linkable, comes from the cache and says when it was confirmed', async ({ app }) => {
  const { page } = app;
  await expectListLoaded(page);
  const row = page.getByTestId('animal-row').first();
  const id = await row.getAttribute('data-id');
  await row.click();
  await expect(page).toHaveURL(new RegExp(`#/animals/${id}$`));
  await expect(page.getByTestId('animal-detail')).toContainText(id!);
  await expect(page.getByTestId('confirmed-at')).toHaveText(/^\d\d:\d\d$/);
  await page.reload();
  await expect(page.getByTestId('animal-detail')).toContainText(id!);
  // The test service runs on the real clock: its single-animal lookup answers until its sunset.
  await expect(page.getByTestId('detail-refresh')).toContainText(DETAIL_REFRESH_NOW);
  await expectNoAxeViolations(page);
});

test('"saved on this device" and "prepare for the event" work offline', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('button', { name: 'Prepare for the event' }).click();
  await expect(page.getByText('Ready: 60 animals are now available offline.')).toBeVisible();
  await service.stop();
  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await expect(page.getByTestId('animal-rows')).toHaveAttribute('data-count', '60');
  await page.getByLabel('Search by name').fill('zzz-no-such-name');
  await expect(page.getByText('No saved animal has')).toBeVisible();
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await page.getByLabel('Status').selectOption('pending');
  await expect(page.getByTestId('list-status')).toContainText(/Offline: showing what was saved at \d\d:\d\d/);
  await expect(page.getByTestId('animal-row').first().locator('.chip')).toHaveText('pending');
  await expect(page.getByTestId('sync-indicator')).toContainText('Offline');
  await expectNoAxeViolations(page);
});

test('10,000 saved animals stay virtualised and searchable', async ({ app }) => {
  const { page } = app;
  await expectListLoaded(page);
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('adoption-desk.local');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction('animals', 'readwrite');
    const store = tx.objectStore('animals');
    for (let i = 1; i <= 10_000; i += 1) {
      const id = String(1_000_000 + i);
      store.put({
        id,
        animal: { id, name: `Bulk ${i}`, categoryId: '1', status: 'available' },
        confirmedAt: 1,
        firstSeenAt: 1,
      });
    }
    await new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  });
  await page.goto(`${app.host.url}#/saved`);
  await page.reload();
  const rows = page.getByTestId('animal-rows');
  await expect(rows).toHaveAttribute('data-count', '10020');
  expect(await page.getByTestId('animal-row').count()).toBeLessThan(100);
  await page.getByLabel('Search by name').fill('Bulk 9999');
  await expect(rows).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('animal-row')).toContainText('1009999');
  await page.getByLabel('Search by name').fill('');
  await page.getByLabel('Sort by').selectOption('id');
  await page.getByTestId('animal-row').first().focus();
  await page.keyboard.press('End');
  await page.locator('.animal-rows__viewport').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId('animal-row').filter({ hasText: 'Bulk 10000' })).toBeVisible();
});
