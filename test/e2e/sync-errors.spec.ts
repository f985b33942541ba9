import { expect, serviceAnimalNames, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { type ProxiedRequest, proxiedTest, type StandInAnswer } from './support/rewriting-proxy';

/** The name of the animal a `POST /pets` creates, or null for any other request. */
function creationName(request: ProxiedRequest, body: string): string | null {
  if (request.method !== 'POST' || request.path !== '/pets') return null;
  return (JSON.parse(body) as { name?: string }).name ?? null;
}

/** A 400 with interface.md's Error body, as the service refuses a creation. */
function refusal(message: string): StandInAnswer {
  return { status: 400, body: JSON.stringify({ code: 'invalid_field', message, status: 400 }) };
}

// The app validates exactly as the service does, so the refusal is staged on the way to the
// service (the rewriting proxy answers in its place): the same HTTP answer reaches the core in the
// browser host and in Electron's main, where createPet is IPC and no page request exists to route.
proxiedTest(
  'an entry the service refuses (400) needs attention and does not block the next ones',
  async ({ app, rewriting }) => {
    const { page, service } = app;
    rewriting.answerInstead = (request, body) =>
      creationName(request, body) === 'Refused' ? refusal('name "Refused" is not allowed') : null;
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
    expect(rewriting.answeredInstead).toEqual([{ method: 'POST', path: '/pets' }]);
  },
);

proxiedTest('a discarded entry is never sent, while the next one is', async ({ app, rewriting }) => {
  const { page, service } = app;
  // Only Ghost's first try is refused (in the service's place, so it never reaches the service);
  // after that the service accepts everything: had Ghost stayed in the queue, it could be sent.
  let ghostTries = 0;
  rewriting.answerInstead = (request, body) =>
    creationName(request, body) === 'Ghost' && ++ghostTries === 1 ? refusal('categoryId is unknown') : null;
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
