/**
 * Reconciliation never adopts another device's animal (issue 14, data safety 1 and 2).
 * Two laptops share one key at an event (two app hosts, each with its own data folder and
 * browser context, one local service). Device A's first send of "Kitten" (category 2) is cut;
 * device B enters the same animal; then A's later requests go through. A must end with its
 * own animal on the service, or ask staff ("check needed") showing both; it must never take
 * B's animal as its own without a word. With one device, a send cut after the service stored
 * it still ends with exactly one animal.
 */
import type { Page } from '@playwright/test';
import { readRequestLog } from '../service/index';
import { expect, test } from './fixtures';
import { addAnimal, expectListLoaded, expectNoAxeViolations } from './renderer-helpers';
import { readOutbox } from './support/crash-scenario';
import { FetchCutter, startDevice, type CutKind, type Device, type DeviceOptions } from './support/devices';

async function openAdd(page: Page): Promise<void> {
  await expectListLoaded(page);
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
}

/** The ids of the service's animals named `name` (read through the service's own API). */
async function serviceIds(url: string, key: string, name: string): Promise<string[]> {
  const response = await fetch(`${url}/pets?limit=100`, { headers: { Authorization: `Bearer ${key}` } });
  const animals = (await response.json()) as { id: number; name: string }[];
  return animals.filter((animal) => animal.name === name).map((animal) => String(animal.id));
}

/**
 * Devices A and B on one key: A's first send of "Kitten" (category 2) is cut as `kind`, then B
 * enters the same animal and the service stores B's; A's later requests go through.
 */
async function kittenOnBothDevices(
  fixtures: Pick<DeviceOptions, 'browser' | 'service' | 'secretStore'>,
  kind: CutKind,
  started: (devices: Device[]) => void,
): Promise<{ a: Device; bId: string | undefined }> {
  const { service } = fixtures;
  const cutter = new FetchCutter();
  const a = await startDevice({ ...fixtures, fetch: cutter.fetch });
  const b = await startDevice(fixtures);
  started([a, b]);
  await openAdd(a.page);
  await openAdd(b.page);

  const cut = cutter.cutNextCreation(kind);
  await addAnimal(a.page, 'Kitten', '2');
  await cut;
  await addAnimal(b.page, 'Kitten', '2');
  await expect.poll(() => service.running.animalCount()).toBe(1);
  const [bId] = await serviceIds(service.url, service.key, 'Kitten');
  cutter.release();
  return { a, bId };
}

test.describe('two devices, one key, a service that ignores Idempotency-Key', () => {
  test.use({ serviceOptions: { seedAnimals: 0, idempotency: false } });

  let devices: Device[] = [];
  test.afterEach(async () => {
    for (const device of devices.splice(0)) await device.stop();
  });

  test('A’s send refused before it left; B enters the same animal; A sends its own', async ({
    browser,
    service,
    secretStore,
  }) => {
    const { a, bId } = await kittenOnBothDevices(
      { browser, service, secretStore },
      'refused',
      (started) => (devices = started),
    );

    await expect.poll(() => service.running.animalCount()).toBe(2);
    await expect(a.page.getByTestId('sync-indicator')).toContainText('all sent');
    await expect(a.page.getByTestId('check-entry')).toHaveCount(0);
    const [mine] = await readOutbox(a.page);
    expect(mine).toMatchObject({ name: 'Kitten', state: 'sent' });
    expect(mine?.serverId).not.toBe(bId);
    expect((await serviceIds(service.url, service.key, 'Kitten')).sort()).toEqual([bId, mine?.serverId].sort());
  });

  test('A’s send lost on the way; B enters the same animal; A asks staff, adopts nothing, sends on request', async ({
    browser,
    service,
    secretStore,
  }, info) => {
    const { a, bId } = await kittenOnBothDevices(
      { browser, service, secretStore },
      'lost',
      (started) => (devices = started),
    );

    const check = a.page.getByTestId('check-entry');
    await expect(check).toContainText('Kitten');
    await expect(check).toContainText(`#${bId}`);
    await expect(a.page.getByRole('region', { name: 'Check needed' })).toBeVisible();
    await expect(a.page.getByTestId('sync-indicator')).toContainText('1 to check');
    await a.page.screenshot({ path: info.outputPath('check-needed.png'), fullPage: true });
    await expectNoAxeViolations(a.page);
    expect(await readOutbox(a.page)).toMatchObject([{ name: 'Kitten', state: 'check_needed', serverId: null }]);
    expect(service.running.animalCount()).toBe(1);

    await check.getByRole('button', { name: /^Send mine/ }).click();
    await expect.poll(() => service.running.animalCount()).toBe(2);
    await expect(check).toHaveCount(0);
    await expect(a.page.getByTestId('sync-indicator')).toContainText('all sent');
    const [mine] = await readOutbox(a.page);
    expect(mine).toMatchObject({ state: 'sent' });
    expect(mine?.serverId).not.toBe(bId);
  });

  test('one device, the answer lost after the service stored it: staff confirm it, exactly one animal', async ({
    browser,
    service,
    secretStore,
  }) => {
    const cutter = new FetchCutter();
    const a = await startDevice({ browser, service, secretStore, fetch: cutter.fetch });
    devices = [a];
    await openAdd(a.page);

    const cut = cutter.cutNextCreation('after-stored');
    await addAnimal(a.page, 'Kitten', '2');
    await cut;
    await expect.poll(() => service.running.animalCount()).toBe(1);
    const [storedId] = await serviceIds(service.url, service.key, 'Kitten');
    cutter.release();

    const check = a.page.getByTestId('check-entry');
    await expect(check).toContainText(`#${storedId}`);
    await check.getByRole('button', { name: /^It is this one/ }).click();
    await expect(check).toHaveCount(0);
    await expect(a.page.getByTestId('sync-indicator')).toContainText('all sent');
    expect(await readOutbox(a.page)).toMatchObject([{ state: 'sent', serverId: storedId }]);
    expect(service.running.animalCount()).toBe(1);
    const posts = (await readRequestLog(service.logFile)).filter((line) => line.method === 'POST');
    expect(posts.map((line) => line.createdId)).toEqual([storedId]);
  });
});

test.describe('one device, a service that honours Idempotency-Key', () => {
  test.use({ serviceOptions: { seedAnimals: 0 } });

  test('“send mine” replays the stored creation; once the service has shown that, a doubt needs no question', async ({
    browser,
    service,
    secretStore,
  }) => {
    const cutter = new FetchCutter();
    const a = await startDevice({ browser, service, secretStore, fetch: cutter.fetch });
    try {
      await openAdd(a.page);
      let cut = cutter.cutNextCreation('after-stored');
      await addAnimal(a.page, 'Kitten', '2');
      await cut;
      cutter.release();
      const check = a.page.getByTestId('check-entry');
      await expect(check).toBeVisible();
      await check.getByRole('button', { name: /^Send mine/ }).click();
      await expect(check).toHaveCount(0);
      await expect(a.page.getByTestId('sync-indicator')).toContainText('all sent');
      const [kittenId] = await serviceIds(service.url, service.key, 'Kitten');
      expect(await readOutbox(a.page)).toMatchObject([{ state: 'sent', serverId: kittenId }]);

      // The replay proved that the service keeps keys: the next doubt is settled by resending.
      cut = cutter.cutNextCreation('after-stored');
      await addAnimal(a.page, 'Puppy', '3');
      await cut;
      cutter.release();
      await expect.poll(async () => (await readOutbox(a.page)).map((row) => row.state)).toEqual(['sent', 'sent']);
      await expect(check).toHaveCount(0);
      expect(service.running.animalCount()).toBe(2);
      const log = await readRequestLog(service.logFile);
      const posts = log.filter((line) => line.method === 'POST');
      expect(posts).toHaveLength(4);
      expect(new Set(posts.map((line) => line.idempotencyKey)).size).toBe(2);
      expect(posts.filter((line) => line.createdId !== null)).toHaveLength(2);
    } finally {
      await a.stop();
    }
  });
});
