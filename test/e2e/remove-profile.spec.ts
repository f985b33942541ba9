/**
 * Removing a profile with queued animals (issue 14, data safety 5): the app warns and says
 * how many are unsent, deletes the profile's database, and a new profile of the same name
 * starts empty (its id is new, so it can never inherit and send the old queue). Profiles are
 * added through "New profile", keys through the key field, as staff do.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test.use({ serviceOptions: { seedAnimals: 0 } });

const cleanups: Array<() => Promise<unknown>> = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
});

async function databaseNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ''));
}

/** Adds one of staff's own profiles through "New profile" in Keys and profiles; returns its id. */
async function newProfile(page: Page, name: string, address: string): Promise<string> {
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Service address').fill(address);
  await form.getByRole('button', { name: 'Add profile' }).click();
  const band = page.getByTestId('profile-band');
  // The band's select lists every profile by name: the active one is the band's own name.
  await expect(page.getByTestId('active-profile-name')).toHaveText(name);
  return (await band.getAttribute('data-profile')) ?? '';
}

test('removing a profile with 3 queued warns with the count, deletes its data, and the name starts afresh', async ({
  app,
  secretStore,
}, info) => {
  const { page, service } = app;
  const band = page.getByTestId('profile-band');
  await expectListLoaded(page);
  // Staff's own profile, no key yet: what is entered in it waits.
  const id = await newProfile(page, 'Field Team', service.url);
  expect(id).toBe('field-team');
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
  await expect(band).toHaveAttribute('data-profile', 'field-team');

  await page.getByRole('button', { name: 'Remove this profile' }).click();
  await warning.getByRole('button', { name: 'Remove Field Team and its 3 unsent animals' }).click();
  await expect(band).toContainText('LOCAL DEMO');
  await expect(band.locator('option[value="field-team"]')).toHaveCount(0);
  await expect.poll(() => databaseNames(page)).not.toContain('adoption-desk.field-team');

  // Set up again under the same name, this time with its key: it starts empty and sends only
  // what is entered in it.
  const again = await newProfile(page, 'Field Team', service.url);
  expect(again).not.toBe('field-team');
  // The key saved below is deleted from the keychain whatever happens.
  cleanups.push(() => secretStore.delete(again));
  const card = page.getByRole('region', { name: 'API key', exact: true });
  await card.getByLabel('API key').fill(service.key);
  await card.getByRole('button', { name: 'Save key' }).click();
  await expect(card.getByTestId('key-state')).toHaveText('Key saved');
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await expect(page.getByTestId('queued-row')).toHaveCount(0);
  await addAnimal(page, 'Fresh', '4');
  await expect.poll(async () => (await creations(service)).length).toBe(1);
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
  expect(await creations(service)).toHaveLength(1);
  expect(service.running.animalCount()).toBe(1);
});

test('a profile with nothing unsent is removed after a plain confirmation; a failure is shown', async ({
  app,
  dataDir,
}) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await newProfile(page, 'Spare', service.url);
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
  await expect(page.getByTestId('profile-band')).toHaveAttribute('data-profile', 'spare');
  expect(await databaseNames(page)).toContain('adoption-desk.spare');
});
