/**
 * Export to CSV (issue 15 item 4) in the browser host: a download of the list as shown and of
 * "Saved on this device", opened and compared with the service's own data; ids exact as text,
 * category names included, formula-looking names neutralised. The CSP is not loosened for it.
 */
import Papa from 'papaparse';
import { CONTENT_SECURITY_POLICY } from '../../electron/core/content-security-policy';
import { expect, test } from './fixtures';
import { createOnService, download, nameCategory, serviceList } from './support/toolkit';

const BIG_FIRST_ID = '9007199254740993';

test.use({ serviceOptions: { seedAnimals: 30, idStart: BIG_FIRST_ID } });

function parse(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  return Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
}

test('the list and the saved animals export to CSV files that match the service', async ({ app }) => {
  const { page, service, consoleErrors } = app;
  const trap = await createOnService(service, { name: '=HYPERLINK("http://evil.example")', categoryId: '2' });
  const names = await serviceList(service, 'limit=100');

  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await nameCategory(page, '2', 'Cats');

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await page.getByLabel(/^Limit/).fill('100');
  await page.getByLabel(/^Limit/).press('Enter');
  await expect(page.getByTestId('list-status')).toContainText(`${names.length} shown`);
  const listFile = await download(page, page.getByRole('button', { name: 'Export CSV' }));
  expect(listFile.name).toMatch(/^animals-local-demo-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByTestId('export-result')).toContainText(`${names.length} animals exported as ${listFile.name}`);
  const rows = parse(listFile.text);
  expect(rows[0]).toEqual(['name', 'category', 'category name', 'status', 'id']);
  const expected = names.map((animal) => [
    animal.name === trap.name ? `'${animal.name}` : animal.name,
    animal.categoryId,
    animal.categoryId === '2' ? 'Cats' : '',
    animal.status ?? '',
    animal.id,
  ]);
  expect(rows.slice(1)).toEqual(expected);
  expect(rows.slice(1).map((row) => row[4])).toContain(BIG_FIRST_ID);

  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await page.getByLabel('Sort').selectOption('id');
  await expect(page.getByTestId('animal-rows')).toHaveAttribute('data-count', String(names.length));
  const savedFile = await download(page, page.getByRole('button', { name: 'Export CSV' }));
  expect(savedFile.name).toMatch(/^saved-on-this-device-local-demo-/);
  const byId = [...expected].sort((a, b) => (BigInt(a[4]!) < BigInt(b[4]!) ? -1 : 1));
  expect(parse(savedFile.text).slice(1)).toEqual(byId);

  // The download needed nothing the CSP forbids, and the CSP is the app's usual one.
  // Asked by the page itself: only browsers resolve the host's own *.localhost name (and hold its session).
  const csp = await page.evaluate(
    async (url) => (await fetch(url)).headers.get('content-security-policy'),
    app.host.url,
  );
  expect(csp).toBe(CONTENT_SECURITY_POLICY);
  expect(consoleErrors.filter((line) => /Content Security Policy/i.test(line))).toEqual([]);
});
