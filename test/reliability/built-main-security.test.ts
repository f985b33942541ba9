/**
 * Security check over the BUILT main process (out/main/index.js, what ships), not the
 * sources: it runs in a child Node process with `electron` resolved to a stand-in
 * (support/electron/), which records what the main process asks for and exercises every guard.
 * Four runs: development (environment overrides honoured), packaged (overrides ignored,
 * production menu, no DevTools), a start-up failure (dialog, exit 1) and a throw in the entry itself.
 * Asserted: the page served from app://adoption-desk with the CSP header (its scripts too, and
 * nothing outside out/renderer), the scheme privileged before ready, context isolation,
 * sandbox, no Node integration, the CJS preload, navigation/redirect/webview/new-window denied
 * on every webContents, permissions denied but clipboard writes by the app page's main frame,
 * IPC refusing foreign senders, Electron's net never used. Also: the built preload requires
 * nothing but electron, and the built page carries the CSP meta.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../electron/core/content-security-policy';
import { CHANNELS, DESKTOP_CHANNELS, ipcName } from '../../src/shared/app-api/api';
import { buildAppIfMissing, ROOT } from '../support/built-app';

const MAIN = join(ROOT, 'out/main/index.js');
const work = mkdtempSync(join(tmpdir(), 'adoption-built-main-'));
const OVERRIDES = {
  ADOPTION_USER_DATA_DIR: join(work, 'user-data'),
  ADOPTION_KEYCHAIN_SERVICE: `Adoption Desk built-main ${process.pid}`,
  ADOPTION_LOCAL_DEMO_URL: 'http://127.0.0.1:45999/v1',
  ELECTRON_RENDERER_URL: '',
};
type Report = Record<string, unknown>;
const reports: Record<'development' | 'packaged' | 'failure' | 'entryFailure', Report & { exitCode?: number }> = {
  development: {},
  packaged: {},
  failure: {},
  entryFailure: {},
};

function runBuiltMain(name: string, env: Record<string, string>): Promise<Report & { exitCode: number }> {
  const reportFile = join(work, `${name}.json`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      // --import takes a URL: a Windows path (C:\…) would be read as one of scheme "c:"
      ['--import', pathToFileURL(join(import.meta.dirname, 'support/electron/register.mjs')).href, MAIN],
      {
        cwd: ROOT,
        // Each run its own data folder: the folder lock (one process per data folder) would
        // otherwise let whichever run starts first turn the others' start into "in use".
        env: {
          ...process.env,
          ADOPTION_STAND_IN_REPORT: reportFile,
          ADOPTION_APP_PATH: ROOT,
          ...env,
          ...(env.ADOPTION_USER_DATA_DIR === OVERRIDES.ADOPTION_USER_DATA_DIR
            ? { ADOPTION_USER_DATA_DIR: join(work, `user-data-${name}`) }
            : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 30_000,
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (!existsSync(reportFile)) reject(new Error(`built main (${name}) exited ${code} with no report: ${output}`));
      else resolvePromise({ ...(JSON.parse(readFileSync(reportFile, 'utf8')) as Report), exitCode: code ?? -1 });
    });
  });
}

beforeAll(async () => {
  await buildAppIfMissing();
  const resources = join(work, 'resources');
  mkdirSync(resources, { recursive: true });
  writeFileSync(join(resources, 'profiles.json'), readFileSync(join(ROOT, 'resources/profiles.json')));
  const packagedData = join(work, 'packaged-data');
  const started = Date.now();
  [reports.development, reports.packaged, reports.failure, reports.entryFailure] = await Promise.all([
    runBuiltMain('development', { ...OVERRIDES, ELECTRON_RENDERER_URL: '' }),
    runBuiltMain('packaged', {
      ...OVERRIDES,
      ELECTRON_RENDERER_URL: 'http://127.0.0.1:45998/',
      ADOPTION_STAND_IN_PACKAGED: '1',
      ADOPTION_STAND_IN_RESOURCES: resources,
      ADOPTION_STAND_IN_USER_DATA: packagedData,
    }),
    runBuiltMain('failure', { ...OVERRIDES, ADOPTION_STAND_IN_FAIL: 'window' }),
    runBuiltMain('entry-failure', { ...OVERRIDES, ADOPTION_STAND_IN_FAIL: 'setPath' }),
  ]);
  console.log(`built main process ran 4 times under the electron stand-in in ${Date.now() - started} ms`);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('built main process security', () => {
  const report = () => reports.development;

  it('opens one hidden window with the security checklist preferences and the CJS preload', () => {
    expect(report()).toMatchObject({ singleInstanceLock: true, windowCount: 1, show: false, exitCode: 0 });
    const prefs = report().webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      allowRunningInsecureContent: false,
      preload: join(ROOT, 'out/preload/index.cjs'),
    });
    expect(prefs.webSecurity).not.toBe(false);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(prefs).not.toHaveProperty('experimentalFeatures', true);
  });

  it('serves the page from app://adoption-desk with the CSP header, its scripts too, and nothing outside', () => {
    expect(report().loadedUrl).toBe('app://adoption-desk/index.html');
    expect(report().privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, codeCache: true } },
    ]);
    expect(report().privilegedBeforeReady).toBe(true);
    expect(report().protocolsHandled).toEqual(['app']);
    const page = report().page as Record<string, unknown>;
    expect(page).toMatchObject({ status: 200, contentType: 'text/html; charset=utf-8', csp: CONTENT_SECURITY_POLICY });
    const assets = Object.values(page.linkedAssets as Record<string, string>);
    expect(assets.length).toBeGreaterThan(1);
    expect(assets.every((answer) => /^200 text\/(javascript|css)/.test(answer))).toBe(true);
    expect(Object.values(page.escapes as Record<string, number>)).toEqual([404, 404]);
  });

  it('prevents navigation, redirects and webviews, and denies new windows, on every webContents', () => {
    expect(report().navigation).toEqual({ 'will-navigate': true, 'will-redirect': true, 'will-attach-webview': true });
    expect(report().windowOpen).toEqual({ action: 'deny' });
    expect(report().otherContents).toEqual({ willNavigatePrevented: true, windowOpen: { action: 'deny' } });
  });

  it('allows clipboard writes by the app page main frame only, denies everything else, adds the CSP header', () => {
    const yes = { granted: true, checked: true };
    const no = { granted: false, checked: false };
    expect(report().permissions).toEqual({
      clipboardWriteMainFrame: yes,
      clipboardWriteSubframe: no,
      clipboardWriteOtherContents: no,
      clipboardRead: no,
      media: no,
    });
    expect(report().responseHeaders).toEqual({
      'X-Other': ['1'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline/);
  });

  it('registers exactly the contract channels, answers its own page and refuses a foreign sender', () => {
    expect(report().ipcChannels).toEqual([...CHANNELS, ...DESKTOP_CHANNELS].map(ipcName).sort());
    expect(report().foreignSenderAnswer).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Unknown sender' },
    });
  });

  it('never uses Electron net (Node fetch: redirects checked by the core, no HTTP cache)', () => {
    expect(report().netAccessed).toEqual([]);
    expect(reports.packaged.netAccessed).toEqual([]);
  });

  it('honours the development overrides when not packaged', () => {
    expect(report().userDataSet).toBe(join(work, 'user-data-development'));
    expect(report().localDemoUrl).toBe(OVERRIDES.ADOPTION_LOCAL_DEMO_URL);
    expect(report().menus).toEqual([]);
    expect(report().webPreferences).toMatchObject({ devTools: true });
  });

  it('packaged: ignores every environment override, has no Reload/DevTools menu and no DevTools', () => {
    const packaged = reports.packaged;
    expect(packaged).toMatchObject({ exitCode: 0, windowCount: 1, userDataSet: null });
    expect(packaged.loadedUrl).toBe('app://adoption-desk/index.html');
    expect(packaged.localDemoUrl).toBe('http://127.0.0.1:4010/v1');
    expect(packaged.menus).toEqual([null]);
    expect(packaged.webPreferences).toMatchObject({ devTools: false });
  });

  it('start-up failure: a dialog says what happened and the app exits 1 (no windowless process)', () => {
    const failure = reports.failure;
    expect(failure.exitCode).toBe(1);
    expect(failure.windowCount).toBe(0);
    expect(failure.dialogs).toEqual([
      { title: 'Adoption Desk could not start', content: expect.stringMatching(/^The GPU process could not start\./) },
    ]);
  });

  it('a throw in the entry’s top level: the same dialog and exit 1 (Electron would only report it and stay)', () => {
    const failure = reports.entryFailure;
    expect(failure.exitCode).toBe(1);
    expect(failure.windowCount).toBe(0);
    expect(failure.singleInstanceLock).not.toBe(true);
    expect(failure.dialogs).toEqual([
      { title: 'Adoption Desk could not start', content: expect.stringMatching(/^Failed to set path: /) },
    ]);
  });

  it('ships a self-contained preload and a page with the CSP meta', () => {
    const preload = readFileSync(join(ROOT, 'out/preload/index.cjs'), 'utf8');
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron']);
    const page = readFileSync(join(ROOT, 'out/renderer/index.html'), 'utf8');
    expect(page).toMatch(/http-equiv="Content-Security-Policy"/);
  });
});
