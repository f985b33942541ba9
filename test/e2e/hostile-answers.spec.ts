/**
 * Answers a real service should not give, through the UI (issue 10, items 2 and 3): the local
 * service sits behind a rewriting proxy that changes the body of chosen 2xx answers.
 */
import { expect, serviceAnimalNames } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { proxiedTest as test } from './support/rewriting-proxy';

interface Record {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

const isList = (path: string) => path === '/pets' || path.startsWith('/pets?');

test('a list answer with one id twice shows the animal once (the last record wins) and Diagnostics notes it', async ({
  app,
  rewriting: proxy,
}) => {
  const { page, consoleErrors } = app;
  await expectListLoaded(page);
  // From now on every list answer repeats its first two animals at the end, the first one renamed.
  let duplicated: Record[] = [];
  proxy.rewrite = ({ method, path }, body) => {
    if (method !== 'GET' || !isList(path)) return null;
    const animals = JSON.parse(body) as Record[];
    if (animals.length < 2) return null;
    duplicated = animals.slice(0, 2);
    return JSON.stringify([...animals, { ...animals[0]!, name: `${animals[0]!.name} (newer copy)` }, animals[1]]);
  };
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(() => proxy.rewritten.length).toBeGreaterThan(0);
  const [first, second] = duplicated;

  const rows = page.getByTestId('animal-rows');
  for (const pass of ['after the answer', 'after a reload (from the saved list, then the service)']) {
    await expect(page.getByTestId('list-status'), pass).toContainText('Updated');
    await expect(rows, pass).toHaveAttribute('data-count', '20');
    // Rows by their exact names (a name that merely contains another is another animal).
    const firstRow = page
      .getByTestId('animal-row')
      .filter({ has: page.getByText(`${first!.name} (newer copy)`, { exact: true }) });
    await expect(firstRow, pass).toHaveCount(1);
    await expect(firstRow, pass).toHaveAttribute('data-id', String(first!.id));
    await expect(
      page.getByTestId('animal-row').filter({ has: page.getByText(second!.name, { exact: true }) }),
      pass,
    ).toHaveCount(1);
    await expect(page.getByText(`${first!.name}`, { exact: true }), pass).toHaveCount(0);
    await page.reload();
  }
  await expectListLoaded(page);
  await expectNoAxeViolations(page);

  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await expect(
    page.getByTestId('animal-row').filter({ has: page.getByText(`${first!.name} (newer copy)`, { exact: true }) }),
  ).toHaveCount(1);
  await expect(page.getByText(first!.name, { exact: true })).toHaveCount(0);

  await page.getByRole('link', { name: 'Diagnostics' }).click();
  const noted = page
    .getByRole('region', { name: 'Request log' })
    .getByRole('row')
    .filter({ hasText: 'GET' })
    .filter({ hasText: /duplicate/i })
    .first();
  await expect(noted).toContainText(String(first!.id));
  await expect(noted).toContainText(String(second!.id));
  expect(consoleErrors.filter((line) => /each_key_duplicate|Uncaught|Error:/.test(line))).toEqual([]);
});

test('a detail answer carrying another animal is refused: nothing is saved, the saved record stays, the screen says so', async ({
  app,
  rewriting: proxy,
}) => {
  const { page, service } = app;
  await expectListLoaded(page);
  const rows = page.getByTestId('animal-row');
  const shownId = (await rows.nth(0).getAttribute('data-id'))!;
  const otherId = (await rows.nth(1).getAttribute('data-id'))!;
  const [shownName] = await serviceAnimalNames(service, 1);
  proxy.rewrite = ({ method, path }, body) => {
    if (method !== 'GET' || path !== `/pets/${shownId}`) return null;
    const animal = JSON.parse(body) as Record;
    return JSON.stringify({ ...animal, id: Number(otherId), name: 'Impostor' });
  };

  await rows.nth(0).click();
  await expect(page).toHaveURL(new RegExp(`#/animals/${shownId}$`));
  const refresh = page.getByTestId('detail-refresh');
  await expect(refresh).toContainText(`another animal (ID ${otherId})`);
  await expect(refresh).not.toContainText('Up to date');
  await expect(page.getByRole('heading', { name: shownName!, level: 2 })).toBeVisible();
  await expect(page.getByTestId('animal-detail')).toContainText(shownId);
  await expect(page.getByTestId('animal-detail')).not.toContainText('Impostor');
  await expectNoAxeViolations(page);

  // Asking again gives the same refusal, and the other animal's saved record is untouched.
  await page.getByRole('button', { name: 'Refresh from the service' }).click();
  await expect(refresh).toContainText(`another animal (ID ${otherId})`);
  expect(proxy.rewritten.length).toBeGreaterThanOrEqual(2);
  await page.getByRole('link', { name: 'Saved on this device' }).click();
  await page.getByLabel('Search by name').fill('Impostor');
  await expect(page.getByText('No saved animal has “Impostor” in its name.')).toBeVisible();
});
