/**
 * Removing a profile with queued animals (issue 14, data safety 5): the app warns and says
 * how many are unsent, deletes the profile's database, and a new profile of the same name
 * starts empty (its id is new, so it can never inherit and send the old queue).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test.use({ serviceOptions: { seedAnimals: 0 } });

async function databaseNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ''));
}

test('removing a profile with 3 queued warns with the count, deletes its data, and the name starts afresh', async ({
  app,
  secretStore,
}, info) => {
  const { page, service, host } = app;
  await expectListLoaded(page);
  // Staff's own profile, set up as the app does it (the core's saveProfile); no key yet, so
  // what is entered waits.
  const saved = await host.core.router.handle('saveProfile', {
    name: 'Field Team',
    baseUrl: service.url,
    color: 'blue',
  });
  expect(saved).toMatchObject({ ok: true, data: { id: 'field-team' } });
  await page.getByTestId('profile-band').locator('select').selectOption('field-team');
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  for (const name of ['Ada', 'Bo', 'Cy']) await addAnimal(page, name, '4');
  await expect(page.getByTestId('queued-row')).toHaveCount(3);
  expect(await databaseNames(page)).toContain('adoption-desk.field-team');

  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await page.getByRole('button', { name: 'Remove this profile' }).click();
  const warning = page.getByRole('alertdialog', { name: 'Remove Field Team?' });
  await expect(warning).toContainText('3 animals entered in Field Team have not been sent');
  await page.screenshot({ path: info.outputPath('remove-warning.png'), fullPage: true });
  await expect(warning.getByRole('button', { name: 'Keep the profile' })).toBeFocused();
  await expectNoAxeViolations(page);
  await warning.getByRole('button', { name: 'Keep the profile' }).click();
  await expect(warning).toHaveCount(0);
  await expect(page.getByTestId('profile-band').locator('select')).toHaveValue('field-team');

  await page.getByRole('button', { name: 'Remove this profile' }).click();
  await warning.getByRole('button', { name: 'Remove Field Team and its 3 unsent animals' }).click();
  await expect(page.getByTestId('profile-band').locator('option[value="field-team"]')).toHaveCount(0);
  await expect.poll(() => databaseNames(page)).not.toContain('adoption-desk.field-team');

  // Set up again under the same name, this time with the key: it starts empty and sends only
  // what is entered in it.
  const again = await host.core.router.handle('saveProfile', {
    name: 'Field Team',
    baseUrl: service.url,
    color: 'blue',
  });
  expect(again).toMatchObject({ ok: true });
  const id = (again as { data: { id: string } }).data.id;
  expect(id).not.toBe('field-team');
  await secretStore.set(id, service.key);
  try {
    await page.getByTestId('profile-band').locator('select').selectOption(id);
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
    await addAnimal(page, 'Fresh', '4');
    await expect.poll(async () => (await creations(service)).length).toBe(1);
    await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
    expect(await creations(service)).toHaveLength(1);
    expect(service.running.animalCount()).toBe(1);
  } finally {
    await secretStore.delete(id).catch(() => undefined);
  }
});

test('a profile with nothing unsent is removed after a plain confirmation; a failure is shown', async ({
  app,
  dataDir,
}) => {
  const { page, service, host } = app;
  await expectListLoaded(page);
  await host.core.router.handle('saveProfile', { name: 'Spare', baseUrl: service.url, color: 'grey' });
  await page.getByTestId('profile-band').locator('select').selectOption('spare');
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  // The settings file cannot be replaced (a folder stands in its place): removing fails.
  const settings = join(dataDir, 'profiles.json');
  rmSync(settings);
  mkdirSync(settings);
  writeFileSync(join(settings, 'keep'), '');
  await page.getByRole('button', { name: 'Remove this profile' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Spare?' });
  await expect(confirm).toContainText('Nothing entered in Spare is waiting to be sent');
  await confirm.getByRole('button', { name: 'Remove Spare', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('The profile could not be removed');
  await expect(page.getByTestId('profile-band').locator('select')).toHaveValue('spare');
  expect(await databaseNames(page)).toContain('adoption-desk.spare');
});
