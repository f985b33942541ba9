/**
 * One crash-during-sync run (issue 7 part 1): 50 creations are queued through the app's
 * Add form while sending is held back, then the drain starts and, at a seeded moment, the
 * browser host is `kill -9`ed (`host-kill`) or the browser is closed (`browser-close`).
 * The host (or browser) comes back on the same origin, the app drains what is left, and the
 * outcome is read from the service's data file and the app's own outbox (read-only).
 *
 * The seeded moment: after the k-th creation request passed the service's validation
 * (`prepared`: the answer is certainly lost) or right after the k-th creation was stored
 * and logged (`created`: the 201 is on its way), k in 1..50.
 *
 * The creation cut by the crash is in doubt. Unless the service has already shown that it
 * keeps idempotency keys, the app cannot be sure a matching animal on the service is its own
 * (another device may share the key), so it asks ("check needed"), and the run answers as
 * staff would: `this-one` (the candidate has this run's unique name) or `send-mine` (with
 * the same key, which a service that keeps keys answers with the stored animal).
 */
import { join } from 'node:path';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../../playwright.config';
import { loadDataFile, type RequestLogLine } from '../../service/index';
import { mulberry32, randomInt } from '../../service/prng';
import type { E2eService } from '../fixtures';
import { addAnimal, expectListLoaded } from '../renderer-helpers';
import { freePort, startHostProcess, type HostProcess } from './host-process';
import { categoryFor, queueThroughForm } from './queue-through-form';

export type CrashKind = 'host-kill' | 'browser-close';
export type StaffAnswer = 'this-one' | 'send-mine';
export const CRASH_COUNT = 50;

export interface CrashDeps {
  service: E2eService;
  dataDir: string;
  keychainService: string;
  browser: Browser;
}

export interface CrashOutcome {
  phase: 'prepared' | 'created';
  k: number;
  /** Creations the service had stored when the crash happened. */
  storedAtCrash: number;
  /** How many animals each expected name has on the service. */
  perName: Map<string, number>;
  /** Animals beyond one per expected name (plus any unexpected animal). */
  duplicates: number;
  /** States of the app's outbox rows after the drain, by name. */
  outbox: { name: string; state: string; serverId: string | null }[];
  serviceIds: Map<string, string[]>;
  /** Questions ("check needed") staff answered before everything was sent. */
  checks: number;
}

interface OutboxRowView {
  name: string;
  state: string;
  serverId: string | null;
}

/** The Local demo profile's outbox, read (never written) from IndexedDB. */
export async function readOutbox(page: Page): Promise<OutboxRowView[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('adoption-desk.local');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    if (!db.objectStoreNames.contains('outbox')) return (db.close(), []);
    const rows = await new Promise<{ animal: { name: string }; state: string; serverId: string | null }[]>(
      (resolve, reject) => {
        const request = db.transaction('outbox').objectStore('outbox').getAll();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      },
    );
    db.close();
    return rows.map((row) => ({ name: row.animal.name, state: row.state, serverId: row.serverId }));
  });
}

export async function runCrashScenario(
  deps: CrashDeps,
  seed: number,
  kind: CrashKind,
  answer: StaffAnswer,
): Promise<CrashOutcome> {
  const { service, dataDir } = deps;
  const random = mulberry32(seed);
  const phase = random() < 0.5 ? 'prepared' : 'created';
  const k = randomInt(random, 1, phase === 'created' ? CRASH_COUNT - 1 : CRASH_COUNT);
  const names = Array.from({ length: CRASH_COUNT }, (_, i) => `Crash-${seed}-${i + 1}`);
  const port = await freePort();
  const hostOptions = {
    port,
    dataDir: join(dataDir, 'app'),
    serviceUrl: service.url,
    keychainService: deps.keychainService,
    logFile: join(dataDir, 'host.log'),
  };
  const profileDir = join(dataDir, 'chromium-profile');
  const openContext = (): Promise<BrowserContext> =>
    kind === 'host-kill'
      ? deps.browser.newContext()
      : deps.browser
          .browserType()
          .launchPersistentContext(profileDir, { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

  let host: HostProcess = await startHostProcess(hostOptions);
  let context = await openContext();
  try {
    let page = await context.newPage();
    // Hold the first send until all 50 are queued, so the crash falls inside one drain of 50.
    let openGate = () => undefined as void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const held = '**/api/createPet';
    await page.route(held, async (route) => {
      await gate;
      await route.continue().catch(() => undefined); // the browser may be gone by now
    });
    await page.goto(host.launchUrl);
    await expectListLoaded(page);
    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    for (const [i, name] of names.slice(0, 3).entries()) await addAnimal(page, name, categoryFor(i));
    await queueThroughForm(
      page,
      names.slice(3).map((name, i) => ({ name, categoryId: categoryFor(i + 3) })),
    );
    expect(service.running.animalCount()).toBe(0);

    let stored = 0;
    let closing: Promise<void> = Promise.resolve();
    const events = service.running.events;
    const crashed = new Promise<number>((resolve) => {
      let seen = 0;
      const crash = () => {
        events.off('prepared', onPrepared);
        events.off('line', onLine);
        if (kind === 'host-kill') host.kill();
        else closing = context.close();
        resolve(stored);
      };
      const onPrepared = ({ method }: { method: string }) => {
        if (phase === 'prepared' && method === 'POST' && ++seen === k) crash();
      };
      const onLine = (line: RequestLogLine) => {
        if (line.createdId === null) return;
        stored += 1;
        if (phase === 'created' && ++seen === k) crash();
      };
      events.on('prepared', onPrepared);
      events.on('line', onLine);
    });
    openGate();
    await page.unroute(held).catch(() => undefined); // later sends go straight to the host
    const storedAtCrash = await crashed;

    if (kind === 'host-kill') {
      await host.exited;
      host = await startHostProcess(hostOptions);
      await page.goto(host.launchUrl); // the restarted host knows no session yet
    } else {
      await closing; // the browser process has exited and released its profile
      context = await openContext();
      page = await context.newPage();
      // The host kept running, but the session cookie went with the browser: a new link, as staff would ask.
      await page.goto(await host.newLaunchUrl());
    }
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    let checks = 0;
    const button = answer === 'this-one' ? /^It is this one/ : /^Send mine/;
    await expect
      .poll(
        async () => {
          const check = page.getByTestId('check-entry').first();
          if (await check.isVisible()) {
            await check.getByRole('button', { name: button }).first().click();
            await expect(check).toHaveCount(0);
            checks += 1;
          }
          return (await readOutbox(page)).filter((row) => row.state === 'sent').length;
        },
        { timeout: 60_000 },
      )
      .toBe(CRASH_COUNT);
    await expect(page.getByTestId('queued-row')).toHaveCount(0);
    await expect(page.getByTestId('attention-entry')).toHaveCount(0);
    await expect(page.getByTestId('sync-indicator')).toContainText('all sent');

    const outbox = await readOutbox(page);
    const data = await loadDataFile(service.running.dataFile ?? join(dataDir, 'service.json'));
    const serviceIds = new Map<string, string[]>();
    for (const animal of data?.animals ?? [])
      serviceIds.set(animal.name, [...(serviceIds.get(animal.name) ?? []), animal.id]);
    const perName = new Map(names.map((name) => [name, serviceIds.get(name)?.length ?? 0]));
    const duplicates = (data?.animals.length ?? 0) - [...perName.values()].filter((n) => n > 0).length;
    return { phase, k, storedAtCrash, perName, duplicates, outbox, serviceIds, checks };
  } finally {
    await context.close().catch(() => undefined);
    await host.stop();
  }
}
