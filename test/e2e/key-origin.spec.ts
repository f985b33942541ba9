/**
 * What staff see of a key bound to its origin (issue 12, finding 1): changing a profile's
 * address to another server says the key will be removed and asks first; afterwards the key
 * is gone, the list says so, and a local "exfiltration" listener at the new address never
 * receives it. An address the organisation set is read-only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectListLoaded, expectNoAxeViolations } from './renderer-helpers';

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

test('moving the Local demo address to another server asks first, removes the key and never sends it there', async ({
  app,
}) => {
  const { page, service } = app;
  const seen: IncomingHttpHeaders[] = [];
  const listener = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
  });
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  const listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/v1`;
  try {
    await expectListLoaded(page);
    await page.getByRole('link', { name: 'Keys and profiles' }).click();
    await expect(page.getByTestId('key-state')).toHaveText('Key saved');
    await page.getByRole('form', { name: 'Edit profile Local demo' }).getByLabel('Service address').fill(listenerUrl);
    await page.getByRole('button', { name: 'Save profile' }).click();
    const question = page.getByRole('alertdialog', { name: 'Change the address to another server?' });
    await expect(question).toContainText(new URL(listenerUrl).origin);
    await expect(question).toContainText('will be removed');
    await expectNoAxeViolations(page);
    await shoot(page, 'address-change-question');

    await page.getByRole('button', { name: 'Change address and remove the key' }).click();
    await expect(page.getByText('Profile saved. The API key was removed')).toBeVisible();
    await expect(page.getByTestId('key-state')).toHaveText('No key saved');
    await shoot(page, 'address-changed');

    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('region', { name: 'API key needed' })).toContainText('No key is saved for Local demo.');
    expect(seen.filter((headers) => headers.authorization !== undefined)).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain(service.key);
  } finally {
    await new Promise((done) => listener.close(done));
  }
});

test.describe('an address the organisation set', () => {
  const PRODUCTION = 'https://api.shelter.example/v1';
  const resourcesDir = mkdtempSync(join(tmpdir(), 'adoption-e2e-resources-'));
  writeFileSync(
    join(resourcesDir, 'profiles.json'),
    JSON.stringify({ version: 1, production: { baseUrl: PRODUCTION }, staging: { baseUrl: null } }),
  );
  test.use({ coreOptions: { resourcesDir } });
  test.afterAll(() => rmSync(resourcesDir, { recursive: true, force: true }));

  test('is shown read-only as set by the organisation', async ({ app }) => {
    const { page } = app;
    await page.getByLabel('Profile').selectOption('production');
    await page.getByRole('link', { name: 'Keys and profiles' }).click();
    const address = page.getByRole('form', { name: 'Edit profile Production' }).getByLabel('Service address');
    await expect(address).toHaveValue(PRODUCTION);
    await expect(address).toHaveAttribute('readonly', '');
    await expect(page.getByText('Set by your organisation.')).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, 'address-read-only');
  });
});
