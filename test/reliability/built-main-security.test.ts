/**
 * Security check over the BUILT main process (out/main/index.js, what ships), not the
 * sources: it runs in a child Node process with `electron` resolved to a stand-in
 * (support/electron/), which records the window's options and exercises every guard.
 * Asserted: context isolation, sandbox, no Node integration, web security on, the CJS
 * preload, navigation/redirect/webview/new-window denied (on every webContents), every
 * permission denied, the CSP header added, IPC refusing foreign senders. Also: the built
 * preload requires nothing but electron, and the built page carries the CSP meta.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../electron/core/content-security-policy';
import { CHANNELS, ipcName } from '../../src/shared/api';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'out/main/index.js');
const work = mkdtempSync(join(tmpdir(), 'adoption-built-main-'));
let report: Record<string, unknown> = {};

function runBuiltMain(): Promise<Record<string, unknown>> {
  const reportFile = join(work, 'report.json');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', join(import.meta.dirname, 'support/electron/register.mjs'), MAIN],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          ADOPTION_USER_DATA_DIR: join(work, 'user-data'),
          ADOPTION_STAND_IN_REPORT: reportFile,
          ADOPTION_APP_PATH: ROOT,
          ADOPTION_KEYCHAIN_SERVICE: `Adoption Desk built-main ${process.pid}`,
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
      if (code !== 0 || !existsSync(reportFile)) reject(new Error(`built main exited ${code}: ${output}`));
      else resolvePromise(JSON.parse(readFileSync(reportFile, 'utf8')) as Record<string, unknown>);
    });
  });
}

beforeAll(async () => {
  if (!existsSync(MAIN)) {
    const build = spawn('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
    await new Promise((done) => build.on('close', done));
  }
  const started = Date.now();
  report = await runBuiltMain();
  console.log(`built main process ran under the electron stand-in in ${Date.now() - started} ms`);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('built main process security', () => {
  it('opens one hidden window with the security checklist preferences and the CJS preload', () => {
    expect(report).toMatchObject({ singleInstanceLock: true, windowCount: 1, show: false });
    const prefs = report.webPreferences as Record<string, unknown>;
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
    expect(report.loadedUrl).toBe(`file://${join(ROOT, 'out/renderer/index.html')}`);
    expect(report.userDataSet).toBe(join(work, 'user-data'));
  });

  it('prevents navigation, redirects and webviews, and denies new windows, on every webContents', () => {
    expect(report.navigation).toEqual({ 'will-navigate': true, 'will-redirect': true, 'will-attach-webview': true });
    expect(report.windowOpen).toEqual({ action: 'deny' });
    expect(report.otherContents).toEqual({ willNavigatePrevented: true, windowOpen: { action: 'deny' } });
  });

  it('denies every permission and adds the CSP header to responses', () => {
    expect(report.permissionGranted).toBe(false);
    expect(report.permissionCheck).toBe(false);
    expect(report.responseHeaders).toEqual({ 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    expect(CONTENT_SECURITY_POLICY).toMatch(/default-src 'none'/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|unsafe-inline/);
  });

  it('registers exactly the contract channels and refuses a foreign sender', () => {
    expect(report.ipcChannels).toEqual(CHANNELS.map(ipcName).sort());
    expect(report.foreignSenderAnswer).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Unknown sender' },
    });
  });

  it('ships a self-contained preload and a page with the CSP meta', () => {
    const preload = readFileSync(join(ROOT, 'out/preload/index.cjs'), 'utf8');
    expect([...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual(['electron']);
    const page = readFileSync(join(ROOT, 'out/renderer/index.html'), 'utf8');
    expect(page).toMatch(/http-equiv="Content-Security-Policy"/);
  });
});
