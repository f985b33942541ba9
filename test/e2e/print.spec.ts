/**
 * The printable list (issue 15 item 5): rendered in Chromium and printed to PDF with Playwright's
 * `page.pdf()` (print media, so the print CSS applies); pdf.js reads the text back: every animal,
 * with its category name, status and id, and the profile and date at the head of every page.
 * In the browser host the Print button calls `window.print()`.
 */
import { expect, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { nameCategory, pdfPages, serviceList } from './support/toolkit';

test.use({ serviceOptions: { seedAnimals: 90, idStart: '9223372036854770000' } });

test('the available animals print one per row, every one in the PDF, a header on every page', async ({ app }) => {
  const { page, service } = app;
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await nameCategory(page, '1', 'Dogs');
  await nameCategory(page, '2', 'Cats');

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await page.getByLabel('Status').selectOption('available');
  await page.getByLabel(/^Limit/).fill('100');
  await page.getByLabel(/^Limit/).press('Enter');
  const available = await serviceList(service, 'status=available&limit=100');
  expect(available.length).toBeGreaterThan(40);
  await expect(page.getByTestId('list-status')).toContainText(`${available.length} shown`);
  await page.getByRole('button', { name: 'Print list' }).click();

  await expect(page).toHaveURL(/#\/print$/);
  await expect(page.getByRole('heading', { name: 'Print: Available animals' })).toBeVisible();
  await expect(page.getByTestId('print-row')).toHaveCount(available.length);
  await expectNoAxeViolations(page);
  // window.print() would open the browser's print dialog: counted instead.
  await page.evaluate(() => {
    (window as unknown as { printCalls: number }).printCalls = 0;
    window.print = () => void (window as unknown as { printCalls: number }).printCalls++;
  });
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  expect(await page.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);

  const pages = await pdfPages(await page.pdf({ format: 'A4' }));
  expect(pages.length).toBeGreaterThan(1);
  for (const text of pages) {
    expect(text).toContain('Available animals');
    expect(text).toContain('Profile: Local demo');
    expect(text).toMatch(/Printed \S/);
    expect(text).not.toContain('Adoption Desk'); // the title bar and the menu are not printed
  }
  const all = pages.join('\n');
  for (const animal of available) {
    const category =
      animal.categoryId === '1' ? 'Dogs' : animal.categoryId === '2' ? 'Cats' : `Category ${animal.categoryId}`;
    expect(all, `${animal.name} (${animal.id})`).toContain(`${animal.name} ${category} available ${animal.id}`);
  }
});

test('opened directly, the print view shows every available animal saved on this device', async ({ app }) => {
  const { page, service } = app;
  await page.getByRole('button', { name: 'Prepare for the event' }).click();
  await expect(page.getByText(/^Ready: \d+ animals are now available offline/)).toBeVisible();
  await expectListLoaded(page);
  await page.goto(`${app.host.url}#/print`);
  const available = await serviceList(service, 'status=available&limit=100');
  await expect(page.getByTestId('print-row')).toHaveCount(available.length);
  const pdfText = (await pdfPages(await page.pdf({ format: 'A4' }))).join('\n');
  for (const animal of available) expect(pdfText).toContain(animal.id);
});
