/**
 * Issue 31, item 10: an update strands the queue. Until 884740d the browser host served the app at
 * `http://127.0.0.1:PORT`; since then at a name of its own, `http://ad-….localhost:PORT`. IndexedDB
 * is per origin, so the queue an earlier version kept in the browser stayed where the new version
 * cannot read it.
 *
 * Checked in the history: the versions before 3b4e8f1 ("Two copies of every animal") kept the
 * queue in the browser alone (8ccd086, the last of them, has the core's journal but its window never
 * writes to it): updated with three animals waiting, none is ever sent. From 3b4e8f1 to ac4835d (the
 * version just before the move) the window kept each animal in the core's safety copy too, which
 * brings them back after the update; they are sent once, but staff were told the browser "lost"
 * them. Both are tested: the update recovers the earlier queue once, sends each animal exactly once
 * (as the service's log shows) and says in plain words what happened; the earlier origin's storage
 * is cleared, and a later launch goes straight to the app.
 *
 * Each test starts the earlier version from git history (support/earlier-version.ts: built with
 * today's packages), queues animals offline through its own UI in Chromium with a persistent
 * profile, stops it, and starts this version on the same data folder and browser profile.
 */
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { storeBoundKey } from '../../electron/core/keys/bound-key';
import { expect, test } from './fixtures';
import { creations, expectListLoaded } from './renderer-helpers';
import { earlierVersion, historyMissing, shallowClone } from './support/earlier-version';
import { startHostProcess } from './support/host-process';
import { serviceList } from './support/toolkit';

const NAMES = ['Olive', 'Basil', 'Sage'];

const EARLIER = [
  { commit: '8ccd086', what: 'a version that kept the queue in the browser alone (before the safety copy)' },
  { commit: 'ac4835d', what: 'the last version at 127.0.0.1 (the queue in the safety copy too)' },
] as const;

const launchBrowser = (profile: string): Promise<BrowserContext> =>
  chromium.launchPersistentContext(profile, {
    executablePath: process.env.ADOPTION_CHROMIUM || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });

const firstPage = async (context: BrowserContext): Promise<Page> => context.pages()[0] ?? (await context.newPage());

/** Types the animals into the earlier version's Add form (its labels; it has no named form). */
async function queueInEarlierVersion(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Add animal', exact: true }).click();
  for (const name of NAMES) {
    await page.getByLabel(/^Name/).fill(name);
    await page.getByLabel(/^Category ID/).fill('7');
    await page.getByLabel(/^Category ID/).press('Enter');
    await expect(page.getByTestId('add-result')).toContainText(`${name} is saved on this device`);
  }
  await page.getByRole('link', { name: 'Animals', exact: true }).click();
  await expect(page.getByTestId('queued-row')).toHaveCount(NAMES.length);
}

test.describe('an update of the browser host from 127.0.0.1 to its own name', () => {
  test.use({ serviceOptions: { seedAnimals: 5 } });

  for (const { commit, what } of EARLIER) {
    test(`from ${commit}, ${what}: three animals queued offline are recovered once and each sent once`, async ({
      service,
      dataDir,
      keychainService,
      secretStore,
    }) => {
      test.setTimeout(240_000);
      const missing = shallowClone() ? historyMissing(commit) : null;
      if (missing) console.log(`[update from ${commit}] skipped: ${missing}`);
      test.skip(missing !== null, missing ?? '');
      const earlier = earlierVersion(commit);
      await storeBoundKey(secretStore, 'local', service.url, service.key);
      const options = {
        dataDir: join(dataDir, 'app'),
        serviceUrl: service.url,
        keychainService,
        logFile: join(dataDir, 'host.log'),
      };
      const profile = mkdtempSync(join(tmpdir(), 'adoption-e2e-profile-'));
      let context: BrowserContext | null = null;
      try {
        // The earlier version, at http://127.0.0.1:PORT, queues three animals while the service is away.
        const old = await startHostProcess({ ...options, root: earlier.root, rendererDir: earlier.rendererDir });
        const port = new URL(old.url).port;
        try {
          expect(new URL(old.url).hostname).toBe('127.0.0.1');
          context = await launchBrowser(profile);
          const page = await firstPage(context);
          await page.goto(old.launchUrl);
          await expectListLoaded(page);
          await service.stop();
          await queueInEarlierVersion(page);
        } finally {
          await context?.close();
          context = null;
          await old.stop();
        }

        // This version, on the same data folder (so the same port) and the same browser profile.
        const host = await startHostProcess(options);
        try {
          expect(new URL(host.url).port).toBe(port);
          await service.restart();
          context = await launchBrowser(profile);
          const page = await firstPage(context);
          await page.goto(host.launchUrl);
          await expect(page.getByTestId('list-status')).toContainText('Updated', { timeout: 30_000 });
          // Each reaches the service (its log), then staff read what happened.
          await expect.poll(async () => (await creations(service)).length, { timeout: 45_000 }).toBe(NAMES.length);
          const listed = (await serviceList(service))
            .map((animal) => animal.name)
            .filter((name) => NAMES.includes(name));
          expect(listed.sort()).toEqual([...NAMES].sort());
          await expect(page.getByRole('status').filter({ hasText: 'earlier version' })).toContainText(
            '3 animals from the earlier version were recovered (Olive, Basil, Sage) and will be sent.',
          );
          for (const name of NAMES) {
            await expect(page.getByTestId('animal-row').filter({ hasText: name })).toContainText(/ID\s*\d+/, {
              timeout: 45_000,
            });
          }
          await expect(page.getByTestId('sync-indicator')).toContainText('all sent');

          // Exactly once each, under three idempotency keys, as the service's own log says.
          const created = await creations(service);
          expect(created).toHaveLength(NAMES.length);
          expect(new Set(created.map((line) => line.idempotencyKey)).size).toBe(NAMES.length);

          // The earlier origin's storage was cleared (after this version had the animals on disk).
          const oldOrigin = await context.newPage();
          await oldOrigin.goto(`http://127.0.0.1:${port}/`);
          const databases = await oldOrigin.evaluate(async () =>
            (await indexedDB.databases()).map((database) => database.name),
          );
          expect(databases.filter((name) => name?.startsWith('adoption-desk.'))).toEqual([]);
          await oldOrigin.close();

          // Once: a later launch goes straight to the app, and nothing more reaches the service.
          const visited: string[] = [];
          page.on('framenavigated', (frame) => {
            if (frame === page.mainFrame()) visited.push(frame.url());
          });
          await page.goto(await host.newLaunchUrl());
          await expectListLoaded(page);
          expect(visited.filter((url) => url.startsWith('http://127.0.0.1'))).toEqual([]);
          expect(await creations(service)).toHaveLength(NAMES.length);
        } finally {
          await context?.close();
          context = null;
          await host.stop();
        }
      } finally {
        rmSync(profile, { recursive: true, force: true });
      }
    });
  }
});
