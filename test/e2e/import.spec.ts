/**
 * Import from a spreadsheet (issue 15 item 3), through the UI against the local service: the
 * preview lists every bad row with its row number, the good rows land on the service exactly
 * once each (its request log and its list), in file order; a bad file changes nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareInt64 } from '../../src/shared/records/int64';
import { readRequestLog } from '../service/index';
import { expect, test } from './fixtures';
import { creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { serviceList, upload } from './support/toolkit';

const STATUSES = ['available', 'pending', 'sold', ''];
const BAD_ROWS: Record<number, string> = { 8: 'Tom,Dogz,available', 23: ',2,', 41: '=HYPERLINK("http://x"),1,' };

/** 50 data rows (spreadsheet rows 2–51); rows 8, 23 and 41 are bad. */
function fiftyRows(): { text: string; good: string[] } {
  const lines = ['name;category;status'];
  const good: string[] = [];
  for (let row = 2; row <= 51; row += 1) {
    const bad = BAD_ROWS[row];
    if (bad) {
      lines.push(bad.replaceAll(',', ';'));
      continue;
    }
    const name = `Import ${row} ${row % 5 === 0 ? 'Zoë' : 'Rex'}`;
    good.push(name);
    lines.push(`${name};${(row % 5) + 1};${STATUSES[row % 4]}`);
  }
  return { text: `${lines.join('\r\n')}\r\n`, good };
}

test.describe('a file of 50 rows with 3 bad ones', () => {
  test.use({ serviceOptions: { seedAnimals: 0 } });

  test('the 3 are listed with their row numbers; the 47 land exactly once, in file order', async ({ app }) => {
    const { page, service } = app;
    await expect(page.getByTestId('list-status')).toContainText('Updated');
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    const { text, good } = fiftyRows();
    await page.getByLabel('Spreadsheet file (.csv)').setInputFiles(upload('animals.csv', text));

    await expect(page.getByTestId('import-summary')).toContainText('50 rows · 47 can be added · 3 with problems');
    const problems = page.getByTestId('import-problems').getByRole('listitem');
    await expect(problems).toHaveCount(3);
    await expect(problems.nth(0)).toContainText('Row 8 (Tom): Category “Dogz” is not a known category name');
    await expect(problems.nth(1)).toContainText('Row 23: Name is missing.');
    await expect(problems.nth(2)).toContainText('Row 41 (=HYPERLINK("http://x")): Name starts with “=”');
    await expect(page.getByTestId('import-row')).toHaveCount(50);
    await expectNoAxeViolations(page);
    expect(await readRequestLog(service.logFile).then((lines) => lines.filter((l) => l.method === 'POST'))).toEqual([]);

    await page.getByRole('button', { name: 'Add 47 animals to the queue' }).click();
    await expect(page.getByTestId('import-result')).toHaveText(
      '47 animals from animals.csv are saved on this device and waiting to send. 3 rows were not added (listed below).',
    );
    await expect(page.getByTestId('sync-indicator')).toContainText('all sent', { timeout: 60_000 });

    const created = await creations(service);
    expect(created).toHaveLength(47);
    expect(new Set(created.map((line) => line.idempotencyKey)).size).toBe(47);
    const onService = (await serviceList(service)).sort((a, b) => compareInt64(a.id, b.id));
    expect(onService.map((animal) => animal.name)).toEqual(good);
    expect(onService.find((animal) => animal.name === 'Import 2 Rex')).toMatchObject({
      categoryId: '3',
      status: 'sold',
    });
    expect(onService.find((animal) => animal.name === 'Import 5 Zoë')).toMatchObject({ categoryId: '1' });
  });
});

test.describe('files that cannot be imported', () => {
  test.use({ serviceOptions: { seedAnimals: 5 } });

  test('wrong encoding, missing columns, 50 MB and formula cells: a clear message, nothing changes', async ({
    app,
    dataDir,
  }) => {
    const { page, service } = app;
    await expectListLoaded(page);
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    const input = page.getByLabel('Spreadsheet file (.csv)');
    const problem = page.getByTestId('import-problem');

    const latin1 = Buffer.concat([Buffer.from('name,category\nZo'), Buffer.from([0xeb]), Buffer.from(',1\n')]);
    await input.setInputFiles(upload('latin1.csv', latin1));
    await expect(problem).toContainText('The file is not UTF-8 text');
    await expect(problem).toContainText('save it as “CSV UTF-8 (comma delimited)”');
    await expect(problem).toContainText('Nothing was imported.');

    await input.setInputFiles(upload('columns.csv', 'Animal,Type\nRex,1\n'));
    await expect(problem).toContainText(
      'The file has no name or category column (its first row names “Animal”, “Type”)',
    );

    const huge = join(dataDir, 'huge.csv');
    writeFileSync(huge, `name,category\n${'Rex,1\n'.repeat((50 * 1024 * 1024) / 6)}`);
    await input.setInputFiles(huge);
    await expect(problem).toContainText('The file is 50.0 MB; an import takes at most 2.0 MB');
    await expectNoAxeViolations(page);

    await input.setInputFiles(upload('formulas.csv', 'name,category\n=1+1,1\n@SUM(A1),2\n+cmd,1\n'));
    await expect(page.getByTestId('import-problems').getByRole('listitem')).toHaveCount(3);
    await expect(page.getByTestId('import-problems')).toContainText('Row 3 (@SUM(A1)): Name starts with “@”');
    await expect(page.getByRole('button', { name: 'Add 0 animals to the queue' })).toBeDisabled();

    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expectListLoaded(page);
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
    expect((await readRequestLog(service.logFile)).filter((line) => line.method === 'POST')).toEqual([]);
  });

  test('rows like animals already on this device are flagged and left out unless staff include them', async ({
    app,
  }) => {
    const { page, service } = app;
    await expectListLoaded(page);
    const [first] = await serviceList(service, 'limit=1');
    if (!first) throw new Error('the service has no animal');
    await page.getByRole('link', { name: 'Import', exact: true }).click();
    const text = `name,category\n"  ${first.name.toUpperCase()} ",${first.categoryId}\nBrand new,1\n`;
    await page.getByLabel('Spreadsheet file (.csv)').setInputFiles(upload('dups.csv', text));
    await expect(page.getByTestId('import-row').nth(0)).toContainText(`Possible duplicate of ID ${first.id}`);
    await expect(page.getByRole('button', { name: 'Add 1 animal to the queue' })).toBeEnabled();
    await page.getByLabel('Also add the 1 row that looks like animals already on this device').check();
    await page.getByRole('button', { name: 'Add 2 animals to the queue' }).click();
    await expect(page.getByTestId('import-result')).toContainText('2 animals from dups.csv are saved on this device');
    await expect.poll(async () => (await creations(service)).length, { timeout: 30_000 }).toBe(2);
  });
});
