/**
 * Issue 20, journal safety: with the disk full, the safety copy cannot be written, so the form says
 * the animal could not be saved and keeps what was typed; nothing is queued or sent. Once there is
 * room again, the same animal is saved and sent once.
 */
import * as fs from 'node:fs/promises';
import type { JournalFs } from '../../electron/core/safety-copy/journal-file';
import { expect, test } from './fixtures';
import { creations, expectListLoaded } from './renderer-helpers';

/** Node's file system, with no room left while `disk.full` is set (what the OS answers: ENOSPC). */
const disk = { full: false };
const journalFs: JournalFs = {
  ...fs,
  open: (async (path: string, flags?: string, mode?: number) => {
    if (disk.full && flags !== 'r')
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    return fs.open(path, flags, mode);
  }) as JournalFs['open'],
};

test.use({ serviceOptions: { seedAnimals: 3 }, coreOptions: { journalFs } });
test.afterEach(() => {
  disk.full = false;
});

test('a full disk: the form says the animal could not be saved and keeps it; saved and sent once there is room', async ({
  app,
}) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  disk.full = true;
  const form = page.getByRole('form', { name: 'Add an animal' });
  await form.getByLabel(/^Name/).fill('Pumpkin');
  await form.getByLabel(/^Category ID/).fill('3');
  await form.getByLabel(/^Category ID/).press('Enter');
  await expect(form.getByRole('alert')).toHaveText(
    "Not saved: This computer's safety copy could not be written: the disk is full.",
  );
  await expect(form.getByLabel(/^Name/)).toHaveValue('Pumpkin');
  await expect(form.getByLabel(/^Category ID/)).toHaveValue('3');
  await expect(page.getByTestId('queued-row')).toHaveCount(0);
  expect(await creations(service)).toHaveLength(0);

  disk.full = false;
  await form.getByLabel(/^Category ID/).press('Enter');
  await expect(page.getByTestId('add-result')).toContainText(/Pumpkin (is saved on this device|was sent)/);
  await expect(page.getByTestId('add-result')).toContainText('Pumpkin was sent (ID', { timeout: 15_000 });
  expect(await creations(service)).toHaveLength(1);
});
