import { expect, serviceAnimalNames, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test('an entry the service refuses (400) needs attention and does not block the next ones', async ({ app }) => {
  const { page, service } = app;
  // The app validates exactly as the service does, so the refusal is staged at the host's API.
  await page.route('**/api/createPet', async (route) => {
    const body = route.request().postDataJSON() as { animal: { name: string } };
    if (body.animal.name !== 'Refused') return route.continue();
    return route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({
        ok: false,
        error: { code: 'invalid', status: 400, serviceCode: 'invalid_field', message: 'name "Refused" is not allowed' },
      }),
    });
  });
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Refused', '3');
  await addAnimal(page, 'Accepted', '3');

  const attention = page.getByTestId('attention-entry');
  await expect(attention).toContainText('The service said: “name "Refused" is not allowed”');
  await expect.poll(async () => (await creations(service)).length).toBe(1);
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Edit & resend Refused' }).click();
  await page.getByRole('form', { name: 'Edit Refused' }).getByLabel(/^Name/).fill('Renamed');
  await page.getByRole('button', { name: 'Resend' }).click();
  await expect(attention).toHaveCount(0);
  await expect.poll(async () => (await creations(service)).length).toBe(2);
});

test('a discarded entry is never sent, while the next one is', async ({ app }) => {
  const { page, service } = app;
  // Only Ghost's first try is refused (at the host's API, so it never reaches the service); after
  // that the service accepts everything: had Ghost stayed in the queue, it could be sent.
  let ghostTries = 0;
  await page.route('**/api/createPet', async (route) => {
    const body = route.request().postDataJSON() as { animal: { name: string } };
    if (body.animal.name !== 'Ghost' || ++ghostTries > 1) return route.continue();
    return route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ ok: false, error: { code: 'invalid', status: 400, message: 'categoryId is unknown' } }),
    });
  });
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Ghost', '999');
  await page.getByRole('button', { name: 'Discard Ghost' }).click();
  await expect(page.getByTestId('attention-entry')).toHaveCount(0);

  await addAnimal(page, 'Kept', '3');
  await expect.poll(async () => (await creations(service)).length).toBe(1);
  expect(await serviceAnimalNames(service, 100)).toContain('Kept');
  expect(await serviceAnimalNames(service, 100)).not.toContain('Ghost');
  expect(ghostTries).toBe(1);
});

test('a 401 asks for the key, and the queue resumes once it is saved', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await page.getByLabel('Replace the API key').fill('not-the-right-key');
  await page.getByRole('button', { name: 'Save key' }).click();
  await expect(page.getByText('Key saved.')).toBeVisible();

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  await addAnimal(page, 'Locked Out', '5');
  const prompt = page.getByRole('region', { name: 'API key needed' });
  await expect(prompt).toContainText('The saved key was refused.');
  expect(await creations(service)).toHaveLength(0);

  await prompt.getByLabel('Replace the API key').fill(service.key);
  await prompt.getByRole('button', { name: 'Save key' }).click();
  await expect(prompt).toHaveCount(0);
  await expect.poll(async () => (await creations(service)).length).toBe(1);
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
});
