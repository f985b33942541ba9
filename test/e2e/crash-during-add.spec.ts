/**
 * Crash during add (issue 20): at an event with no network, staff add animals one after another
 * while the browser host is `kill -9`ed at a seeded moment. Every animal the form said was saved
 * is in the safety copy's journal on disk (read straight from the file); after the restart on the
 * same origin and with the service back, each of them is on the service exactly once, and no
 * animal is there twice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJournal } from '../../electron/core/safety-copy/journal-file';
import { mulberry32, randomInt } from '../service/prng';
import { expect, test } from './fixtures';
import { freePort, openOnHostProcess, startHostProcess } from './support/host-process';
import { addThroughForm } from './support/queue-through-form';
import { serviceList } from './support/toolkit';

const ANIMALS = 30;

/** The names the journal file holds as kept (read as a restart would: torn tail left out). */
function journalNames(dataDir: string): Set<string> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dataDir, 'safety-copy', 'local.jsonl'));
  } catch {
    return new Set();
  }
  const kept = decodeJournal(bytes).records.filter((record) => (record as { type?: string }).type === 'kept');
  return new Set(kept.map((record) => (record as { animal: { name: string } }).animal.name));
}

test.describe.configure({ mode: 'parallel' });
test.use({ serviceOptions: { seedAnimals: 0, plan: 'enterprise:100000:1000000' } });

for (const seed of [301, 302, 303]) {
  test(`seed ${seed}: the host killed during adds; every animal said saved is in the journal and sent exactly once`, async ({
    service,
    dataDir,
    keychainService,
    secretStore,
    browser,
  }) => {
    test.setTimeout(90_000);
    const opened = await openOnHostProcess(
      { service, dataDir, keychainService, secretStore, browser },
      await freePort(),
    );
    const { options, context, page } = opened;
    let host = opened.host;
    try {
      await service.stop();
      await page.getByRole('link', { name: 'Add animal', exact: true }).click();
      await expect(page.getByRole('form', { name: 'Add an animal' })).toBeVisible();

      const names = Array.from({ length: ANIMALS }, (_, i) => `Crash ${seed}-${i + 1}`);
      const killAfterMs = randomInt(mulberry32(seed), 30, 800);
      const adding = addThroughForm(
        page,
        names.map((name) => ({ name, categoryId: '4' })),
        false,
      );
      await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      host.kill();
      await host.exited;
      const said = await adding;
      const saved = names.filter((name) => said[name]?.saved === true);
      const journal = journalNames(options.dataDir);
      console.log(
        `crash-during-add seed ${seed}: killed after ${killAfterMs} ms; ${saved.length} said saved, ${journal.size} in the journal`,
      );
      // never "saved" without the journal's record on disk
      expect(saved.filter((name) => !journal.has(name))).toEqual([]);
      expect(saved.length).toBeGreaterThan(0);

      host = await startHostProcess(options);
      // The page is reloaded before the service is back. Opening the new launch link sets the new
      // session cookie for the whole browser context, so for the moment the navigation takes the old
      // page can still send with it; with the service up, such a send reaches it and its answer is cut
      // off by the navigation: a doubt the app rightly leaves to staff ("1 to check", seen in a trace)
      // while the service has not shown that it keeps keys. With the service down it is refused unsent.
      await page.goto(host.launchUrl);
      await service.restart();
      await page.getByRole('link', { name: 'Animals', exact: true }).click();
      await expect
        .poll(async () => (await serviceList(service)).length, { timeout: 60_000 })
        .toBeGreaterThanOrEqual(saved.length);
      // On a busy machine a send may still have its answer cut off as the page is replaced (CI saw
      // "1 to check" once): a doubt the app rightly leaves to staff, who answer as the faults test
      // does. The service honours Idempotency-Key, so "Send mine" gets the stored animal back and
      // the exactly-once checks below still hold.
      await expect
        .poll(
          async () => {
            const check = page.getByTestId('check-entry').first();
            if (await check.isVisible()) await check.getByRole('button', { name: /^Send mine/ }).click();
            return (await page.getByTestId('sync-indicator').textContent()) ?? '';
          },
          { timeout: 60_000, intervals: [250] },
        )
        .toContain('all sent');
      const onService = (await serviceList(service)).map((animal) => animal.name);
      const counts = new Map<string, number>();
      for (const name of onService) counts.set(name, (counts.get(name) ?? 0) + 1);
      expect(saved.filter((name) => counts.get(name) !== 1)).toEqual([]);
      expect([...counts].filter(([, count]) => count > 1)).toEqual([]);
      // anything else on the service is an animal the journal kept as the host died
      expect(onService.filter((name) => !saved.includes(name) && !journal.has(name))).toEqual([]);
    } finally {
      await context.close();
      await host.stop();
    }
  });
}
