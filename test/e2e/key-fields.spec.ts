/**
 * The key prompt and the Keys and profiles card on one screen (issue 10, item 6): each field
 * has its own id, and each label names and focuses its own field.
 */
import { expect, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

test.use({ storeKey: false });

test('with the key prompt and the key card both on screen, each label names its own field', async ({ app }) => {
  const { page, service } = app;
  const prompt = page.getByRole('region', { name: 'API key needed' });
  await expect(prompt).toBeVisible();
  await page.getByRole('link', { name: 'Keys and profiles' }).click();
  const card = page.getByRole('region', { name: 'API key', exact: true });
  await expect(card).toBeVisible();
  await expect(prompt).toBeVisible();

  const promptField = prompt.getByLabel('API key');
  const cardField = card.getByLabel('API key');
  await expect(promptField).toHaveCount(1);
  await expect(cardField).toHaveCount(1);
  await expect(cardField).toHaveAccessibleName('API key');
  const ids = await page.locator('input[type="password"]').evaluateAll((inputs) => inputs.map((input) => input.id));
  expect(ids).toHaveLength(2);
  expect(new Set(ids).size).toBe(2);

  // A click on a label puts the cursor in its own field.
  await card.locator('label', { hasText: /^API key$/ }).click();
  await expect(cardField).toBeFocused();
  await prompt.locator('label', { hasText: /^API key$/ }).click();
  await expect(promptField).toBeFocused();
  await expectNoAxeViolations(page);

  // The card's field saves the key of this profile.
  await cardField.fill(service.key);
  await card.getByRole('button', { name: 'Save key' }).click();
  await expect(card.getByTestId('key-state')).toHaveText('Key saved');
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expectListLoaded(page);
});
