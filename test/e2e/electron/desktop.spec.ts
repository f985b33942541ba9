/**
 * Electron (issue 21): what only the desktop app does with files and paper.
 * - Export CSV goes through the native save dialog (`dialog.showSaveDialog`, answered here through
 *   `electronApp.evaluate`, as a person choosing a file would) and main writes the file atomically:
 *   read back and compared with the service's own data.
 * - Print asks main to print the print view (`webContents.print`, whose system dialog is replaced
 *   the same way); what it would print is made with `webContents.printToPDF` of that view (print
 *   media) and read back with pdf.js: every animal, a header on every page.
 */
import Papa from 'papaparse';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../fixtures';
import { pdfPages, serviceList } from '../support/toolkit';

test.use({ serviceOptions: { seedAnimals: 60, idStart: '9007199254740993' } });

test('Electron: Export CSV asks where to save, and the file holds the list as the service has it', async ({
  app,
  dataDir,
}) => {
  const { page, service, host } = app;
  const target = join(dataDir, 'chosen by staff.csv');
  // The save dialog, answered as staff would: the options it was shown with are kept for the checks.
  await host.electronApp.evaluate(({ dialog }, filePath) => {
    const asked: unknown[] = [];
    (globalThis as unknown as { saveDialogAsked: unknown[] }).saveDialogAsked = asked;
    dialog.showSaveDialog = (async (...args: unknown[]) => {
      asked.push(args.at(-1));
      return { canceled: false, filePath };
    }) as typeof dialog.showSaveDialog;
  }, target);

  const animals = await serviceList(service, 'limit=100');
  await page.getByLabel(/^Limit/).fill('100');
  await page.getByLabel(/^Limit/).press('Enter');
  await expect(page.getByTestId('list-status')).toContainText(`${animals.length} shown`);
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByTestId('export-result')).toContainText(`saved as chosen by staff.csv`);

  const asked = await host.electronApp.evaluate(
    () => (globalThis as unknown as { saveDialogAsked: unknown[] }).saveDialogAsked,
  );
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ defaultPath: expect.stringMatching(/animals-local-demo-\d{4}-\d{2}-\d{2}\.csv$/) });

  const text = readFileSync(target, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
  expect(rows[0]).toEqual(['name', 'category', 'category name', 'status', 'id']);
  expect(rows.slice(1).map((row) => row[4])).toEqual(animals.map((animal) => animal.id));
});

test('Electron: Print prints the print view; as a PDF it holds every animal, a header on every page', async ({
  app,
}) => {
  const { page, service, host } = app;
  const available = await serviceList(service, 'status=available&limit=100');
  await page.getByLabel('Status').selectOption('available');
  await page.getByLabel(/^Limit/).fill('100');
  await page.getByLabel(/^Limit/).press('Enter');
  await expect(page.getByTestId('list-status')).toContainText(`${available.length} shown`);
  await page.getByRole('button', { name: 'Print list' }).click();
  await expect(page.getByTestId('print-row')).toHaveCount(available.length);

  // The system print dialog, replaced: main's call is recorded and reported as printed.
  await host.electronApp.evaluate(({ BrowserWindow }) => {
    const contents = BrowserWindow.getAllWindows()[0]!.webContents;
    const calls: unknown[] = [];
    (globalThis as unknown as { printCalls: unknown[] }).printCalls = calls;
    contents.print = ((options: unknown, callback?: (success: boolean, reason: string) => void) => {
      calls.push(options);
      callback?.(true, '');
    }) as typeof contents.print;
  });
  await page.getByRole('button', { name: 'Print', exact: true }).click();
  await expect
    .poll(() => host.electronApp.evaluate(() => (globalThis as unknown as { printCalls: unknown[] }).printCalls.length))
    .toBe(1);
  await expect(page.getByRole('status').filter({ hasText: 'Not printed' })).toHaveCount(0);

  // docs/api/web-contents.md: printToPDF(options) resolves with the PDF's bytes (print media, as on paper).
  const base64 = await host.electronApp.evaluate(async ({ BrowserWindow }) => {
    const pdf = await BrowserWindow.getAllWindows()[0]!.webContents.printToPDF({ pageSize: 'A4' });
    return pdf.toString('base64');
  });
  const pages = await pdfPages(Buffer.from(base64, 'base64'));
  expect(pages.length).toBeGreaterThan(1);
  const all = pages.join(' ');
  for (const animal of available) expect(all).toContain(animal.id);
  for (const text of pages) expect(text).toContain('Local demo');
});
