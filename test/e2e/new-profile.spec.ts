/**
 * Staff's own profiles (issue 10, item 9): "New profile" in Keys and profiles adds one (name,
 * address, colour); it can get its key, list its animals and be removed again.
 */
import { expect, serviceAnimalNames, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test('staff add a profile, save its key, list its animals and remove it', async ({ app, secretStore }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await expect(form).toBeVisible();

  // A wrong address is refused with a clear message, and nothing is added.
  await form.getByLabel('Name').fill('North shelter');
  await form.getByLabel('Service address').fill('http://shelter.example.org/v1');
  await form.getByRole('button', { name: 'Add profile' }).click();
  await expect(form.getByText('Address must use https://')).toBeVisible();
  await expect(page.getByLabel('Profile', { exact: true }).getByRole('option', { name: /North shelter/ })).toHaveCount(
    0,
  );
  await expectNoAxeViolations(page);

  await form.getByLabel('Service address').fill(service.url);
  await form.getByLabel('Colour').selectOption('purple');
  await form.getByRole('button', { name: 'Add profile' }).click();

  // The new profile is shown at once, with its own colour, and asks for its key.
  const band = page.getByTestId('profile-band');
  await expect(page.getByTestId('active-profile-name')).toHaveText('North shelter');
  await expect(band).toContainText('CUSTOM');
  await expect(band).toHaveClass(/band--purple/);
  await expect(page.getByText('North shelter was added and is now shown.')).toBeVisible();
  const profileId = await band.getAttribute('data-profile');
  expect(profileId).toBeTruthy();
  expect(profileId).not.toBe('local');
  const card = page.getByRole('region', { name: 'API key', exact: true });
  await expect(card.getByTestId('key-state')).toHaveText('No key saved');
  await card.getByLabel('API key').fill(service.key);
  await card.getByRole('button', { name: 'Save key' }).click();
  await expect(card.getByTestId('key-state')).toHaveText('Key saved');

  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expectListLoaded(page);
  await expect(page.getByTestId('animal-rows')).toHaveAttribute('data-count', '20');
  const [first] = await serviceAnimalNames(service, 1);
  await expect(page.getByTestId('animal-row').first()).toContainText(first!);

  // Removed: gone from the list of profiles, Local demo shown again, its key gone from the keychain.
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await page.getByRole('button', { name: 'Remove this profile' }).click();
  await page
    .getByRole('alertdialog', { name: 'Remove North shelter?' })
    .getByRole('button', { name: 'Remove North shelter', exact: true })
    .click();
  await expect(band).toContainText('LOCAL DEMO');
  await expect(page.getByLabel('Profile', { exact: true }).getByRole('option', { name: /North shelter/ })).toHaveCount(
    0,
  );
  await expect.poll(() => secretStore.get(profileId!)).toBeNull();
});
