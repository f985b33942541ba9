import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../electron/core/content-security-policy';
import { createAppProtocolHandler, isAppPageUrl } from '../../../electron/main/app-protocol';

const root = mkdtempSync(join(tmpdir(), 'adoption-app-protocol-'));
const renderer = join(root, 'out/renderer');
mkdirSync(join(renderer, 'assets'), { recursive: true });
writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Adoption Desk</title>');
writeFileSync(join(renderer, 'assets/index-abc.js'), 'export const x = 1;');
writeFileSync(join(renderer, 'assets/notes.txt'), 'not served: unknown type');
mkdirSync(join(root, 'out/main'), { recursive: true });
writeFileSync(join(root, 'out/main/index.js'), 'the main process: never served');
writeFileSync(join(root, 'secret.json'), '{"not":"served"}');
afterAll(() => rmSync(root, { recursive: true, force: true }));

const handle = createAppProtocolHandler(renderer);
const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

describe('app:// protocol handler', () => {
  it('serves the page with the CSP header, its type and nosniff', async () => {
    for (const url of ['app://adoption-desk/index.html', 'app://adoption-desk/']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('Content-Security-Policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(await response.text()).toContain('<title>Adoption Desk</title>');
    }
  });

  it('serves module scripts as JavaScript (module scripts need a JavaScript MIME type)', async () => {
    const response = await get('app://adoption-desk/assets/index-abc.js');
    expect(response.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toBe('export const x = 1;');
  });

  it('never serves anything outside the renderer folder, however the path is written', async () => {
    const attempts = [
      'app://adoption-desk/../main/index.js',
      'app://adoption-desk/%2e%2e/main/index.js',
      'app://adoption-desk/%2E%2E%2Fmain%2Findex.js',
      'app://adoption-desk/assets/..%2F..%2F..%2Fsecret.json',
      'app://adoption-desk/..%5c..%5csecret.json',
      'app://adoption-desk/index.html%00.js',
      'app://adoption-desk/%E0%A4%A',
    ];
    for (const url of attempts) {
      const response = await get(url);
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(await response.text(), url).toBe('');
    }
  });

  it('answers 404 for another host, a missing file or an unknown type, and 405 for a POST', async () => {
    expect((await get('app://elsewhere/index.html')).status).toBe(404);
    // A Request cannot carry credentials; Electron's could in principle: a plain object stands in.
    const withCredentials = { method: 'GET', url: 'app://user:pw@adoption-desk/index.html' } as Request;
    expect((await handle(withCredentials)).status).toBe(404);
    expect((await get('app://adoption-desk/missing.js')).status).toBe(404);
    expect((await get('app://adoption-desk/assets/notes.txt')).status).toBe(404);
    expect((await get('app://adoption-desk/index.html', 'POST')).status).toBe(405);
    expect((await get('app://adoption-desk/missing.js')).headers.get('Content-Security-Policy')).toBe(
      CONTENT_SECURITY_POLICY,
    );
  });

  it('recognises the app page with any hash or query, and nothing else', () => {
    expect(isAppPageUrl('app://adoption-desk/index.html')).toBe(true);
    expect(isAppPageUrl('app://adoption-desk/index.html#/animals/9007199254740993')).toBe(true);
    expect(isAppPageUrl('app://adoption-desk/index.html?x=1')).toBe(true);
    for (const url of [
      'file:///opt/adoption-desk/out/renderer/index.html',
      'app://adoption-desk/assets/index-abc.js',
      'app://adoption-desk.evil.example/index.html',
      'https://adoption-desk/index.html',
      '',
    ]) {
      expect(isAppPageUrl(url), url).toBe(false);
    }
  });
});
