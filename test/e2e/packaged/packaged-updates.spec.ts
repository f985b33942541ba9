/**
 * The real updater of the packaged app (issue 21, item 4) against a feed served by this test:
 * electron-updater's generic provider, pointed at it the way IT points it (the `updates.url` of
 * the organisation's profiles.json beside app.asar, in a copy of the app). The app looks for an
 * update soon after it starts, reads the feed's manifest, and downloads the newer version in the
 * background; on Windows the download is verified (sha512) and staff are told it installs when
 * they close the app (nothing is waiting to be sent). macOS hands a download to Squirrel.Mac, which
 * accepts only a signed app: there the test stops at the manifest and the download being asked for.
 * Linux: a `--dir` build is not an AppImage, which electron-updater needs to update on Linux, so
 * the test is skipped there with that reason. The process is killed at the end, never quit, so the
 * stand-in installer never runs.
 */
import { type Browser, chromium, expect, test } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyPackagedApp, dataFolderArgs, requirePackagedApp, resourcesOf, start, stop } from '../support/packaged-app';

const MANIFEST = process.platform === 'darwin' ? 'latest-mac.yml' : 'latest.yml';
const FILE = process.platform === 'darwin' ? 'Adoption-Desk-99.0.0-mac.zip' : 'Adoption-Desk-99.0.0-setup.exe';

test.describe('the packaged app’s updates', () => {
  const executable = requirePackagedApp(test, 'packaged updates');
  test.skip(
    process.platform === 'linux',
    'electron-updater updates an AppImage on Linux only; the --dir build is not one (electron-updater AppImageUpdater)',
  );
  test.setTimeout(180_000);

  let home: string;
  let feed: Server;
  const asked: string[] = [];

  test.beforeEach(async () => {
    home = mkdtempSync(join(tmpdir(), 'adoption-packaged-updates-'));
    const payload = randomBytes(64 * 1024);
    const sha512 = createHash('sha512').update(payload).digest('base64');
    const manifest = [
      'version: 99.0.0',
      'files:',
      `  - url: ${FILE}`,
      `    sha512: ${sha512}`,
      `    size: ${payload.length}`,
      `path: ${FILE}`,
      `sha512: ${sha512}`,
      "releaseDate: '2026-11-24T00:00:00.000Z'",
      '',
    ].join('\n');
    feed = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0] ?? '';
      asked.push(path);
      if (path === `/${MANIFEST}`) response.writeHead(200, { 'Content-Type': 'text/yaml' }).end(manifest);
      else if (path === `/${FILE}`)
        response
          .writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': payload.length })
          .end(payload);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  });

  test.afterEach(async () => {
    await new Promise((resolve) => feed.close(resolve));
    rmSync(home, { recursive: true, force: true });
  });

  test('finds the newer version on the organisation’s feed and downloads it in the background', async () => {
    const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/`;
    const exe = copyPackagedApp(executable, home);
    const settingsFile = join(resourcesOf(exe), 'profiles.json');
    const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(settingsFile, JSON.stringify({ ...settings, updates: { url } }));

    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: home, APPDATA: home };
    delete env.ELECTRON_RUN_AS_NODE;
    const app = start(exe, dataFolderArgs(join(home, 'user-data')), env);
    let browser: Browser | null = null;
    try {
      const outcome = await app.outcome;
      if (!('devtools' in outcome)) throw new Error(`the app ended: ${JSON.stringify(outcome)}\n${app.output()}`);
      // The first look comes soon after start (core/updates: FIRST_CHECK_AFTER_MS).
      await expect.poll(() => asked, { timeout: 90_000 }).toContain(`/${MANIFEST}`);
      await expect.poll(() => asked, { timeout: 60_000 }).toContain(`/${FILE}`);
      if (process.platform === 'win32') {
        browser = await chromium.connectOverCDP(outcome.devtools);
        const page = browser
          .contexts()[0]!
          .pages()
          .find((p) => p.url().startsWith('app://'))!;
        await expect(page.getByTestId('update-notice')).toHaveText(
          'Update ready: version 99.0.0 installs when you close Adoption Desk.',
          { timeout: 60_000 },
        );
      }
    } finally {
      await browser?.close().catch(() => undefined);
      await stop(app);
    }
  });
});
