/**
 * The browser host restarted with the same data folder comes back on the same origin
 * (issue 14, item 4): an animal queued offline before the restart is shown after it and
 * sent once the service is back. IndexedDB is per origin, so a host on another port would
 * show an empty queue ("Online · all sent") and never send it.
 */
import { expect, test } from './fixtures';
import { addAnimal, creations } from './renderer-helpers';
import { openOnHostProcess, startHostProcess } from './support/host-process';

test('an animal queued offline is shown and sent after the host restarts', async ({
  service,
  dataDir,
  keychainService,
  secretStore,
  browser,
}) => {
  test.setTimeout(120_000);
  const opened = await openOnHostProcess({ service, dataDir, keychainService, secretStore, browser });
  const { options, context, page } = opened;
  let host = opened.host;
  try {
    await service.stop();
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await addAnimal(page, 'Stranded', '3');
    await expect(page.getByTestId('queued-row')).toHaveCount(1);

    const before = host.url;
    await host.stop();
    host = await startHostProcess(options);
    expect(host.url).toBe(before);
    await page.goto(host.launchUrl);
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await expect(page.getByTestId('queued-row')).toHaveCount(1);
    await expect(page.getByTestId('queued-row')).toContainText('Stranded');
    await expect(page.getByTestId('sync-indicator')).toContainText('1 waiting to send');

    await service.restart();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByTestId('queued-row')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
    expect((await creations(service)).length).toBe(1);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByTestId('animal-row').filter({ hasText: 'Stranded' })).toBeVisible();
  } finally {
    await context.close();
    await host.stop();
  }
});
