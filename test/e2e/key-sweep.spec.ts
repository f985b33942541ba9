/**
 * Key sweep (issue 7, security): with a distinctive key (`e2e-<uuid>`, unique per test),
 * exercise the main screens, then look for the key everywhere the app can leave text: the
 * DOM of every screen, every IndexedDB database, localStorage and sessionStorage, every
 * console message and page error, the body of every response of the browser host, the
 * text a screenshot shows, what the host and core printed in this process, and every file
 * the host, core and service wrote in the data folder. The service's request log holds the
 * key's hash only. Then a service that echoes the key back (issue 12, finding 3): no part of
 * it reaches the orders view, an error on screen or Diagnostics.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { readRequestLog } from '../service/index';
import { expect, test } from './fixtures';
import { addAnimal, expectListLoaded } from './renderer-helpers';

async function dumpIndexedDb(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const out: Record<string, unknown> = {};
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const name = info.name;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        out[`${name}/${store}`] = await new Promise((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      }
      db.close();
    }
    return JSON.stringify(out);
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('the key appears in no DOM, storage, console, host response, rendered text, log or file', async ({
  app,
  dataDir,
}) => {
  const { page, service, host } = app;
  const key = service.key;
  const found: Record<string, string[]> = {};
  const record = (where: string, text: string) => (found[where] ??= []).push(text);

  // What this process prints (the in-process host and core log through console).
  const printed: string[] = [];
  const originals = { log: console.log, error: console.error, warn: console.warn };
  for (const level of ['log', 'error', 'warn'] as const)
    console[level] = (...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
      originals[level](...args);
    };
  page.on('console', (message) => record('console', message.text()));
  page.on('pageerror', (error) => record('console', `${error.name}: ${error.message}`));
  const bodies: Promise<unknown>[] = [];
  page.on('response', (response) => {
    if (!response.url().startsWith(host.url) || response.url().includes('/events')) return;
    bodies.push(
      response.text().then(
        (text) => record('host responses', `${response.url()}\n${text}`),
        () => undefined,
      ),
    );
  });

  try {
    await page.reload(); // so the listeners see the page load too
    await expectListLoaded(page);
    record('dom', await page.content());
    await page.getByTestId('animal-row').first().click();
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
    record('dom', await page.content());

    await page.getByRole('link', { name: 'Keys and profiles' }).click();
    await expect(page.getByTestId('key-state')).toHaveText('Key saved');
    await page.getByLabel('Replace the API key').fill(key);
    await page.getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByText('Key saved.')).toBeVisible();
    await expect(page.getByLabel('Replace the API key')).toHaveValue('');
    await page.getByRole('button', { name: 'Test key' }).click();
    await expect(page.getByTestId('key-test')).toHaveText('The service accepted the key.');
    record('dom', await page.content());

    await page.getByRole('link', { name: 'Add animal', exact: true }).click();
    await addAnimal(page, 'Sweep', '6');
    await expect(page.getByTestId('sync-indicator')).toContainText('all sent');
    for (const screen of ['Saved on this device', 'Store orders', 'Diagnostics', 'Animals']) {
      await page.getByRole('link', { name: screen, exact: true }).click();
      await expect(page.getByRole('link', { name: screen, exact: true })).toHaveAttribute('aria-current', 'page');
      record('dom', await page.content());
    }
    await expect(page.getByTestId('animal-row').filter({ hasText: 'Sweep' })).toBeVisible();

    // The text the page renders (innerText, input values included): what a screenshot would
    // show, read from the page rather than from pixels (no OCR here).
    const shown = await page.evaluate(() =>
      [document.body.innerText, ...Array.from(document.querySelectorAll('input'), (input) => input.value)].join('\n'),
    );
    expect(shown).toContain('Sweep');
    record('rendered text', shown);

    const indexedDb = await dumpIndexedDb(page);
    expect(indexedDb).toContain('Sweep');
    record('indexeddb', indexedDb);
    record(
      'storage',
      await page.evaluate(() => JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })),
    );
    await Promise.all(bodies);
  } finally {
    Object.assign(console, originals);
  }
  record('printed by host and core', printed.join('\n'));
  for (const file of filesUnder(dataDir)) record(`file ${file}`, readFileSync(file, 'latin1'));

  expect(found['host responses']?.length ?? 0).toBeGreaterThan(10);
  expect(Object.keys(found).some((where) => where.endsWith('service-requests.log'))).toBe(true);
  const leaks = Object.entries(found)
    .filter(([, texts]) => texts.some((text) => text.includes(key)))
    .map(([where]) => where);
  expect(leaks).toEqual([]);

  // The service's request log carries the key's hash, never the key.
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  const log = await readRequestLog(service.logFile);
  expect(log.length).toBeGreaterThan(3);
  expect(log.every((line) => line.keyHash === hash)).toBe(true);
});

/** Every 8-character piece of `key`: none may be on screen (a key cut in two counts too). */
function pieces(key: string): string[] {
  return Array.from({ length: key.length - 7 }, (_, i) => key.slice(i, i + 8));
}

test('a service that echoes the key gets no part of it onto the orders view, an error or Diagnostics', async ({
  app,
}) => {
  const { page } = app;
  const key = `echo-${app.service.key}`;
  const echo = createServer((request, response) => {
    const authorization = request.headers.authorization ?? '';
    const headers = {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': authorization,
      'X-RateLimit-Remaining': authorization.slice(7),
      'X-RateLimit-Reset': '9999999999',
    };
    if (request.url?.startsWith('/v1/store/orders')) {
      response.writeHead(200, headers).end(JSON.stringify({ echoedAuthorization: authorization, [key]: key }));
      return;
    }
    const message = `${'x'.repeat(290)}${authorization} is not welcome here`;
    response.writeHead(400, headers).end(JSON.stringify({ code: authorization, message, status: 400 }));
  });
  await new Promise<void>((done) => echo.listen(0, '127.0.0.1', done));
  try {
    await page.getByRole('link', { name: 'Keys and profiles' }).click();
    await page
      .getByRole('form', { name: 'Edit profile Local demo' })
      .getByLabel('Service address')
      .fill(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('button', { name: 'Change address and remove the key' }).click();
    // The key card (the key prompt is on screen too now that no key is saved)
    const card = page.getByRole('region', { name: 'API key', exact: true });
    await card.getByPlaceholder('Paste the key').fill(key);
    await card.getByRole('button', { name: 'Save key' }).click();
    await expect(page.getByText('Key saved.')).toBeVisible();

    const shown: string[] = [];
    await page.getByRole('link', { name: 'Store orders' }).click();
    await expect(page.getByRole('region', { name: 'Orders as returned by the service' })).toContainText(
      '"echoedAuthorization": "Bearer [hidden key]"',
    );
    shown.push(await page.content());
    await page.getByRole('link', { name: 'Animals', exact: true }).click();
    await page.getByRole('button', { name: 'Refresh' }).click();
    // the service's 400 message is quoted, cut to 300 characters after the key was hidden
    await expect(page.getByText(/Showing saved data: x+Bearer \[h/)).toBeVisible();
    await expect(page.getByRole('status', { name: 'Rate limit' })).toContainText('("Bearer [hidden key]")');
    shown.push(await page.content());
    await page.getByRole('link', { name: 'Diagnostics' }).click();
    await expect(page.getByRole('region', { name: 'Request log' })).toContainText('/store/orders');
    shown.push(await page.content());
    await page.screenshot({ path: test.info().outputPath('echoed-orders.png'), fullPage: true });
    const text = shown.join('\n');
    expect(pieces(key).filter((piece) => text.includes(piece))).toEqual([]);
  } finally {
    await new Promise((done) => echo.close(done));
  }
});
