/**
 * The packaged app's updates against feeds served by this test, through the door an attacker would
 * use: the feed (issues 30 and 31). Whoever serves the feed chooses the file and the hash
 * electron-updater checks, so an update may come only from the organisation's https address and
 * only to a copy that can check who made it (electron/core/updates/update-trust.ts). The package CI
 * builds (`electron-builder --dir`, unsigned, not installed by a setup program) can check no one:
 * - Linux: never updates itself (the package manager does);
 * - Windows: not the per-user setup (the MSI and copies are left to IT), and unsigned;
 * - macOS: ad-hoc signed, so Squirrel.Mac could never accept an update.
 * Each says so in Diagnostics and never connects to the feed. A feed on this computer over plain
 * http (any local user could hold its port first) is refused by the installed app as well.
 * The feeds count every TCP connection, so even a TLS attempt on the wrong scheme would show.
 * The app's first look would come 30 s after start (core/updates FIRST_CHECK_AFTER_MS); an "off"
 * state schedules none (test/electron/core/updates/update-policy.test.ts), which Diagnostics shows.
 */
import { type Browser, chromium, expect, type Page, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPackagedApp, dataFolderArgs, requirePackagedApp, resourcesOf, start, stop } from '../support/packaged-app';

/** Why this unsigned, uninstalled copy does not update itself, as Diagnostics says it (en). */
const UNTRUSTED: Partial<Record<NodeJS.Platform, RegExp>> = {
  linux: /On Linux, Adoption Desk is updated by your package manager/,
  win32: /This copy was not installed by the Adoption Desk setup program/,
  darwin: /This copy of Adoption Desk is not signed, so it cannot check that an update comes from its publisher/,
};

test.describe('the packaged app’s updates', () => {
  const executable = requirePackagedApp(test, 'packaged updates');
  test.setTimeout(120_000);

  let home: string;
  let feed: Server;
  let connections: number;

  test.beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'adoption-packaged-updates-'));
    connections = 0;
    // A feed that would serve a newer version to anyone who asked.
    feed = createServer((_request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/yaml' }).end('version: 99.0.0\n'),
    );
    feed.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  });

  test.afterEach(async () => {
    await new Promise((resolve) => feed.close(resolve));
    rmSync(home, { recursive: true, force: true });
  });

  /** A copy of the app whose organisation settings name `url` as the update feed; Diagnostics' update line. */
  async function updateStateWithFeed(url: string): Promise<string> {
    const exe = copyPackagedApp(executable, home);
    const settingsFile = join(resourcesOf(exe), 'profiles.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, updates: { url } }));
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE;
    const app = start(exe, dataFolderArgs(join(home, 'user-data')), env);
    let browser: Browser | null = null;
    try {
      const outcome = await app.outcome;
      if (!('devtools' in outcome)) throw new Error(`the app ended: ${JSON.stringify(outcome)}\n${app.output()}`);
      browser = await chromium.connectOverCDP(outcome.devtools);
      const context = browser.contexts()[0]!;
      const page: Page =
        context.pages().find((p) => p.url().startsWith('app://')) ??
        (await context.waitForEvent('page', (p) => p.url().startsWith('app://') || p.url() === 'about:blank'));
      await page.waitForURL(/^app:\/\/adoption-desk\//);
      await page.getByRole('link', { name: 'Diagnostics' }).click();
      const state = page.getByTestId('update-state');
      await expect(state).toHaveText(/^Off: /);
      return (await state.textContent()) ?? '';
    } finally {
      await browser?.close().catch(() => undefined);
      await stop(app);
    }
  }

  test('an https feed: this unsigned copy does not look, says why, and the feed sees no connection', async () => {
    const port = (feed.address() as AddressInfo).port;
    const state = await updateStateWithFeed(`https://127.0.0.1:${port}/`);
    expect(state).toMatch(UNTRUSTED[process.platform] ?? /cannot check who made an update/);
    expect(connections).toBe(0);
  });

  test('a plain-http feed on this computer: refused by the installed app, the feed sees no connection', async () => {
    const port = (feed.address() as AddressInfo).port;
    const state = await updateStateWithFeed(`http://127.0.0.1:${port}/`);
    expect(state).toMatch(/the update address must use https:\/\//);
    expect(connections).toBe(0);
  });
});
