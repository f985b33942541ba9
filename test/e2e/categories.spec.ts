/**
 * Category names (issue 15 item 1) and the duplicate question at entry (item 2), through the UI:
 * names edited in Keys and profiles, shared as a JSON file (a bad file changes nothing), shown
 * beside the id in the detail and the add form, typed names accepted; an animal already saved or
 * waiting asks once more before it is added, never silently.
 */
import { expect, test } from './fixtures';
import { addAnimal, creations, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { download, nameCategory, serviceList, upload } from './support/toolkit';

test.use({ serviceOptions: { seedAnimals: 12 } });

test('category names: edited, exported, imported from a file (a bad one changes nothing), shown and typed', async ({
  app,
}) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await nameCategory(page, '1', 'Dogs');
  await nameCategory(page, '2', 'Chats');
  const form = page.getByRole('form', { name: 'Name a category' });
  await form.getByLabel('Category ID').fill('3');
  await form.getByLabel('Category name').fill('DOGS');
  await form.getByRole('button', { name: 'Save name' }).click();
  await expect(page.getByRole('alert')).toContainText('Not saved: categories 1 and 3 are both called “DOGS”.');
  await expectNoAxeViolations(page);

  const file = await download(page, page.getByRole('button', { name: 'Export names to a file' }));
  expect(file.name).toBe('categories-local-demo.json');
  expect(JSON.parse(file.text)).toEqual({
    kind: 'adoption-desk.categories',
    version: 1,
    categories: [
      { id: '1', label: 'Dogs' },
      { id: '2', label: 'Chats' },
    ],
  });

  const chooser = page.getByLabel('Use names from a file…');
  await chooser.setInputFiles(upload('notes.json', '{"hello": 1}', 'application/json'));
  await expect(page.getByTestId('category-file-problem')).toHaveText(
    'The file cannot be used: this is not a category file of Adoption Desk; this file is of a version this app does not know; the file has no list of categories. Nothing was changed.',
  );
  const shared = {
    kind: 'adoption-desk.categories',
    version: 1,
    categories: [
      { id: 1, label: 'Dogs' },
      { id: 2, label: 'Cats' },
      { id: '3', label: 'Rabbits' },
    ],
  };
  await chooser.setInputFiles(upload('shelter.json', JSON.stringify(shared), 'application/json'));
  await expect(page.getByTestId('category-pending')).toContainText(
    "shelter.json has 3 category names. Using it replaces this profile's names: 1 added, 1 renamed, 0 removed, 1 unchanged.",
  );
  await expect(page.getByTestId('category-pending')).toContainText('2: “Chats” becomes “Cats”');
  await page.getByRole('button', { name: 'Use these names' }).click();
  await expect(page.getByTestId('category-list').getByRole('listitem')).toHaveText([
    /^1\s*Dogs/,
    /^2\s*Cats/,
    /^3\s*Rabbits/,
  ]);

  // The list shows the name beside the id.
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  const dog = (await serviceList(service, 'limit=20')).find((animal) => animal.categoryId === '1');
  if (!dog) throw new Error('the seeded service has no animal of category 1');
  await expect(page.locator(`[data-testid="animal-row"][data-id="${dog.id}"]`)).toContainText('Category 1 · Dogs');

  const [first] = await serviceList(service, 'limit=1');
  if (!first) throw new Error('the service has no animal');
  await page.goto(`${app.host.url}#/animals/${first.id}`);
  const names: Record<string, string> = { '1': 'Dogs', '2': 'Cats', '3': 'Rabbits' };
  const expected = names[first.categoryId] ? `${first.categoryId} · ${names[first.categoryId]}` : first.categoryId;
  await expect(page.getByTestId('detail-category')).toHaveText(expected);

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  // The Add form first: right after the click the detail screen may still be shown (issue 25).
  const addForm = page.getByRole('form', { name: 'Add an animal' });
  await expect(addForm).toBeVisible();
  const category = addForm.getByLabel(/^Category ID/);
  await expect(addForm.locator('datalist#add-categories option')).toHaveCount(3);
  expect(
    await addForm
      .locator('datalist#add-categories option')
      .evaluateAll((options) => options.map((option) => [(option as HTMLOptionElement).value, option.textContent])),
  ).toEqual([
    ['1', 'Dogs'],
    ['2', 'Cats'],
    ['3', 'Rabbits'],
  ]);
  await category.fill('3');
  await expect(page.getByTestId('category-known')).toHaveText('Rabbits');
  await category.fill('rabbits');
  await expect(page.getByTestId('category-known')).toHaveText('ID 3');
  await category.fill('');
  await addAnimal(page, 'Thumper', 'Rabbits');
  await addAnimal(page, 'Any id', '77');
  await expectNoAxeViolations(page);
  await expect
    .poll(async () => (await serviceList(service)).filter((a) => a.name === 'Thumper'))
    .toEqual([expect.objectContaining({ categoryId: '3' })]);
});

test('the duplicate question: asked before saving, once more to add, never silent', async ({ app }) => {
  const { page, service } = app;
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  await nameCategory(page, '2', 'Cats');
  const saved = await serviceList(service);
  const [known] = saved;
  if (!known) throw new Error('the service has no animal');
  const before = (await creations(service)).length;

  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  const addForm = page.getByRole('form', { name: 'Add an animal' });
  const name = addForm.getByLabel(/^Name/);
  await name.fill(` ${known.name.toUpperCase()} `);
  await addForm.getByLabel(/^Category ID/).fill(known.categoryId);
  await name.press('Enter');
  const question = page.getByTestId('duplicate-question');
  const label = known.categoryId === '2' ? 'Cats' : `category ${known.categoryId}`;
  await expect(question).toContainText(
    `${known.name.toUpperCase()}, ${label} is already saved on this device (ID ${known.id}). Add another?`,
  );
  await expect(page.getByRole('button', { name: "Don't add" })).toBeFocused();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: "Don't add" }).click();
  await expect(question).toHaveCount(0);
  await expect(name).toHaveValue('');
  expect((await creations(service)).length).toBe(before);

  // Offline: the first Kitten waits in the outbox; the second asks, and "Add another" adds it.
  await service.stop();
  await addAnimal(page, 'Kitten', '2');
  await name.fill('kitten');
  await page.getByLabel(/^Category ID/).fill('Cats');
  await name.press('Enter');
  // Not sent: "waiting to send", or "sending" while the engine is trying it at that moment (offline,
  // the try fails and it waits again). Either way not an ID: the service does not have it.
  await expect(question).toContainText(
    /^kitten, Cats is already saved on this device \((waiting to send|sending)\)\. Add another\?/,
  );
  await page.getByRole('button', { name: 'Add another' }).click();
  await expect(page.getByTestId('add-result')).toContainText('kitten is saved on this device and waiting to send');
  await expect(page.getByTestId('queued-row')).toHaveCount(2);
  await service.restart();
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent', { timeout: 30_000 });
  expect((await creations(service)).length).toBe(before + 2);
});
