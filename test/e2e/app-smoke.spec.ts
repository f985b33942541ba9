/**
 * Smoke test of the whole app in Chromium through the browser host against the local
 * service: it starts on the Local demo profile and shows that profile's animals.
 */
import { writeLaunchFile } from '../../scripts/lib/open-browser';
import { expect, serviceAnimalNames, test } from './fixtures';
import { expectListLoaded } from './renderer-helpers';

test('the app starts on the Local demo profile and shows its animals', async ({ app }) => {
  const { page, service } = app;
  await expect(page).toHaveTitle('Adoption Desk');
  await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');

  const names = await serviceAnimalNames(service, 5);
  expect(names).toHaveLength(5);
  for (const name of names) {
    await expect(page.getByText(name, { exact: true }).first()).toBeVisible();
  }
  expect(app.consoleErrors).toEqual([]);
});

test('the page holds no token: the host API answers its session cookie only, which scripts cannot read', async ({
  app,
  browser,
}) => {
  const { page, host } = app;
  await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');
  expect(new URL(page.url()).search).toBe('');
  expect(await page.locator('meta[name="adoption-host-token"]').count()).toBe(0);
  expect(await page.evaluate(() => document.cookie)).toBe('');
  const statuses = await page.evaluate(async () => {
    const call = (credentials: RequestCredentials) =>
      fetch('/api/listProfiles', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
        credentials,
      }).then((response) => response.status);
    return { withSession: await call('same-origin'), without: await call('omit') };
  });
  expect(statuses).toEqual({ withSession: 200, without: 403 });

  // Another browser (no session) gets the page that says how to open the app, not the app.
  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    const answer = await other.goto(host.url);
    expect(answer?.status()).toBe(403);
    await expect(other.getByRole('heading', { name: 'Open Adoption Desk from its own link' })).toBeVisible();
  } finally {
    await stranger.close();
  }
});

test('the window starts with the list alone: the other screens load the first time they are opened', async ({
  app,
}) => {
  const { page, service } = app;
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname.split('/').pop() ?? '');
  });
  await page.reload();
  const [first] = await serviceAnimalNames(service, 1);
  await expect(page.getByText(first ?? '', { exact: true }).first()).toBeVisible();

  // The chunks are named by rollup after their first module (electron.vite.config.ts).
  const onFirstUse = [
    'AddAnimalScreen',
    'AnimalDetailScreen',
    'KeysAndProfilesScreen',
    'KeyField',
    'ImportScreen',
    'PrintView',
    'DiagnosticsScreen',
    'OrdersScreen',
    'SyncAttention',
    'papaparse',
  ];
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((name) => onFirstUse.some((screen) => name.startsWith(`${screen}-`)))).toEqual([]);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Add animal' }).click();
  await expect(page.getByRole('heading', { name: 'Add an animal' })).toBeVisible();
  expect(scripts.some((name) => name.startsWith('AddAnimalScreen-'))).toBe(true);
  expect(app.consoleErrors).toEqual([]);
});

test("the demo's way in: a launch link reached from a page on file:// (another site) opens the app", async ({
  host,
  browser,
}) => {
  // scripts/lib/open-browser.ts gives the browser a file that forwards to the link (no secret on a
  // command line). Chromium counts that as a cross-site arrival and, after a redirect, leaves the
  // SameSite=Strict session cookie out of the next load: the host answers such an arrival with a
  // page of its own that goes on (launch-session.ts, continuePage).
  const file = writeLaunchFile(host.launchUrl());
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(file.fileUrl);
    await expect(page.getByTestId('active-profile-name')).toHaveText('Local demo');
    await expectListLoaded(page);
    expect(new URL(page.url()).origin).toBe(new URL(host.url).origin);
  } finally {
    await context.close();
    file.remove();
  }
});
