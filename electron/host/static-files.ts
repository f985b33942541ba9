/**
 * Serves the built renderer (`out/renderer`): correct content types, nothing outside the
 * folder, the files as built (no token in them), and the security headers on every answer.
 */
import { readFile, stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { t } from '../../src/shared/i18n';
import { CONTENT_SECURITY_POLICY } from '../core';

export { CONTENT_SECURITY_POLICY };

/**
 * Headers every answer of the host carries. The opener policy keeps any page that opens the app
 * from a handle on it (and the app from one on its opener; the app opens no windows itself).
 * `noopener-allow-popups`, not `same-origin`: with `same-origin` Chromium puts every navigation to
 * the page in a new browsing context group, so each load of it started a renderer process and
 * compiled every script again: first rows 150–200 ms later (test/e2e/page-load.spec.ts,
 * docs/performance.md).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'noopener-allow-popups',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The file a URL path names inside `root`, or null when it would leave it. */
export function resolveInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = resolve(root);
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = resolve(join(base, relative));
  return full === base || full.startsWith(base + sep) ? full : null;
}

export function sendPlain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

export function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  response.end(html);
}

/**
 * A file the build names by its content (Vite's `assets/[name]-[hash][extname]`, an 8-character
 * base64url hash): a new build gives changed files new names, so a browser may keep these for good.
 */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.(?:js|css|woff2?|png|svg|webp)$/;

/**
 * How long a browser may keep a renderer file. The page itself: never (it is only for a session).
 * A hashed asset: for good, so a reload neither fetches it again nor compiles it again (Chromium keeps
 * a script's compiled code with its HTTP cache entry, v8.dev/blog/code-caching-for-devs; `no-cache`
 * without a validator fetched every script anew on each load: first rows 60–100 ms later, measured in
 * docs/performance.md). Anything else: asked for again each time.
 */
export function cacheControlOf(urlPath: string, type: string): string {
  if (type.startsWith('text/html')) return 'no-store';
  return HASHED_ASSET.test(urlPath) ? 'private, max-age=31536000, immutable' : 'no-cache';
}

/** Answers a GET/HEAD for a renderer file. */
export async function serveStatic(
  rendererDir: string,
  urlPath: string,
  response: ServerResponse,
  headOnly: boolean,
): Promise<void> {
  const file = resolveInside(rendererDir, urlPath);
  if (!file) return sendPlain(response, 404, t('host.notFound'));
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    // Browsers ask for a favicon on their own; without one, say "nothing" rather than 404.
    if (urlPath === '/favicon.ico') {
      response.writeHead(204, { ...SECURITY_HEADERS, 'Cache-Control': 'no-cache' });
      return void response.end();
    }
    return sendPlain(response, 404, t('host.notFound'));
  }
  const type = contentTypeOf(file);
  const body = await readFile(file);
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': String(body.length),
    'Cache-Control': cacheControlOf(urlPath, type),
  });
  response.end(headOnly ? undefined : body);
}
