/**
 * Safe updates, as staff see them (issue 21, item 4): an update downloaded while three animals
 * entered offline are still waiting is said to wait for them ("Update ready: it installs once the
 * 3 waiting animals are sent") and may not install on close; once the service is back and they are
 * sent, it installs when the app is closed. The core's own rule and safety copy decide; the
 * updater's part (electron-updater, in the installed app only) is played here by a port that
 * records what it is told; the real one runs against a feed in the packaged app (CI).
 */
import type { UpdaterPort } from '../../electron/core/updates';
import { TRUSTED, UPDATES_RESOURCES } from './support/updates';
import { expect, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';

const installOnQuit: boolean[] = [];
const port: UpdaterPort = { check: async () => {}, setInstallOnQuit: (allowed) => void installOnQuit.push(allowed) };
test.use({ coreOptions: { updates: { port, trust: TRUSTED }, resourcesDir: UPDATES_RESOURCES } });

test('an update waits for the animals entered offline, and installs on close once they are sent', async ({ app }) => {
  const { page, service, host } = app;
  await expectListLoaded(page);
  await expect(page.getByTestId('update-notice')).toHaveCount(0);

  await service.stop();
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  for (const name of ['Olive', 'Basil', 'Sage']) await addAnimal(page, name, '7');
  await expect(page.getByTestId('sync-indicator')).toContainText('3 waiting to send');

  host.core.updates.downloaded('0.2.0');
  await expect(page.getByTestId('update-notice')).toHaveText(
    'Update ready: it installs once the 3 waiting animals are sent.',
  );
  expect(installOnQuit.at(-1)).toBe(false);
  await page.getByRole('link', { name: 'Diagnostics' }).click();
  await expect(page.getByTestId('update-state')).toHaveText(
    'Update ready: it installs once the 3 waiting animals are sent.',
  );

  await service.restart();
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('sync-indicator')).toContainText('all sent', { timeout: 20_000 });
  await expect(page.getByTestId('update-notice')).toHaveText(
    'Update ready: version 0.2.0 installs when you close Adoption Desk.',
  );
  expect(installOnQuit.at(-1)).toBe(true);
});
