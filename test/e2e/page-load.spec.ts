/**
 * Loading the browser host's page again, and opening it from another page (issue 32).
 *
 * With `Cross-Origin-Opener-Policy: same-origin` on the page, Chromium 156 put every navigation to
 * it in a new browsing context group and so in a new renderer process: each load started a process
 * and compiled every start-up script again (V8's compilation cache is per process), and first rows
 * took 377–431 ms instead of 220–228 in three alternated pairs (docs/performance.md, "First rows:
 * a renderer process per load"). `noopener-allow-popups` keeps what the header was there for: a
 * page that opens the app gets no handle on it. Both are checked here through Chromium itself: its
 * process list (DevTools protocol `SystemInfo.getProcessInfo`) and the window an opener gets back.
 */
import { type Browser, type CDPSession, chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { expect, test } from './fixtures';
import { expectListLoaded } from './renderer-helpers';

/**
 * Chromium starts a spare renderer process ahead of a navigation that may need one; without it, a
 * renderer process that was not there before a load is one the load itself needed.
 */
const ONE_PROCESS_PER_NEED = [...CHROMIUM_ARGS, '--disable-features=SpareRendererForSitePerProcess'];

async function rendererPids(cdp: CDPSession): Promise<Set<number>> {
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  return new Set(processInfo.filter((p) => p.type === 'renderer').map((p) => p.id));
}

let browser: Browser;
test.beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.ADOPTION_CHROMIUM || '/usr/bin/chromium',
    args: ONE_PROCESS_PER_NEED,
  });
});
test.afterAll(async () => browser?.close());

test('the page loaded again in its tab runs in the renderer process it had, so its compiled scripts are kept', async ({
  host,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await browser.newBrowserCDPSession();
  await page.goto(host.launchUrl());
  await expectListLoaded(page);
  const before = await rendererPids(cdp);

  for (let load = 0; load < 2; load += 1) {
    await page.goto('about:blank');
    await page.goto(host.url);
    await expectListLoaded(page);
  }
  const started = [...(await rendererPids(cdp))].filter((pid) => !before.has(pid));
  expect(started, 'renderer processes started by loading the page again').toEqual([]);
  await context.close();
});

test('a page that opens the app gets no handle on its window, and the app none on the opener', async ({
  host,
  service,
}) => {
  const context = await browser.newContext();
  const opener = await context.newPage();
  // Another origin than the app's: the service's own address.
  await opener.goto(`${service.url}/`);
  const popupEvent = context.waitForEvent('page');
  const opened = await opener.evaluate((url) => {
    (window as Window & { app?: Window | null }).app = window.open(url);
    return (window as Window & { app?: Window | null }).app != null;
  }, host.launchUrl());
  expect(opened).toBe(true);
  const popup = await popupEvent;
  await expectListLoaded(popup);
  // A window in another browsing context group reads as closed to its opener.
  expect(await opener.evaluate(() => (window as Window & { app?: Window | null }).app?.closed)).toBe(true);
  expect(await popup.evaluate(() => window.opener === null)).toBe(true);
  await context.close();
});
