/**
 * The app's own origin, `app://adoption-desk/`, which serves the built renderer (out/renderer)
 * to the window instead of `file://`. With a `file:` page the CSP's `'self'` matches any local
 * file and a header CSP never applies; here every response carries the CSP header, and
 * `'self'` means this origin and nothing else.
 *
 * Electron-free (Request in, Response out) so it is tested in plain Node; main-process.ts
 * registers it with `protocol.handle` (docs/api/protocol.md: the handler gets a GlobalRequest
 * and returns a GlobalResponse).
 */
import fs from 'node:fs';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../core';

export const APP_SCHEME = 'app';
export const APP_HOST = 'adoption-desk';
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The privileges of the scheme, given to `protocol.registerSchemesAsPrivileged` before `ready`
 * (docs/api/structures/custom-scheme.md). `standard` gives relative URLs and web storage
 * (IndexedDB, localStorage: the outbox lives there); `secure` makes the page a secure context.
 * Nothing else: no `bypassCSP`; no `corsEnabled`, which would let other origins read these
 * responses (shell/browser/net/electron_url_loader_factory.cc refuses cross-origin CORS-mode
 * requests to a scheme without it; the page's own module scripts are same-origin and pass); no
 * `supportFetchAPI`: the page never fetches app:// (its API is the preload's IPC), so with the
 * CSP's `connect-src 'self'` it can fetch nothing at all, not even its own files
 * (shell/browser/api/electron_api_protocol.cc:154 passes the flag to the renderer, which registers
 * only the schemes given it, shell/renderer/renderer_client_base.cc:262-266). The e2e suite reads
 * the answers' headers from main with net.fetch (test/e2e/electron/app-scheme.spec.ts).
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, codeCache: true },
} as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Whether `url` is the app's page (any query or fragment: the renderer routes by hash). */
export function isAppPageUrl(url: string): boolean {
  return url.split(/[?#]/)[0] === APP_PAGE_URL;
}

function answer(status: number, body: string | Uint8Array<ArrayBuffer> | null, contentType: string): Response {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': contentType,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    },
  });
}

/** The handler for `protocol.handle(APP_SCHEME, …)`, serving files below `rendererDir` only. */
export function createAppProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = resolve(rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, null, 'text/plain');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(400, null, 'text/plain');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST || url.username || url.password) {
      return answer(404, null, 'text/plain');
    }
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return answer(400, null, 'text/plain');
    }
    if (path === '/' || path === '') path = '/index.html';
    const file = resolve(root, `.${path}`);
    const inside = relative(root, file);
    // `..` (decoded, so `%2e%2e` too), a NUL or an absolute path never leaves the renderer folder.
    if (!inside || inside.startsWith('..') || isAbsolute(inside) || path.includes('\0')) {
      return answer(404, null, 'text/plain');
    }
    const contentType = CONTENT_TYPES[extname(file).toLowerCase()];
    if (!contentType) return answer(404, null, 'text/plain');
    try {
      // Packaged, `file` is inside app.asar: Electron patches `fs.promises.readFile` to read from
      // the archive (lib/node/asar-fs-wrapper.ts). Looked up at call time on the `fs` object, so
      // the patched function is the one called (a named ESM import could keep Node's own).
      const body = await fs.promises.readFile(file);
      return answer(200, request.method === 'HEAD' ? null : new Uint8Array(body), contentType);
    } catch {
      return answer(404, null, 'text/plain');
    }
  };
}
