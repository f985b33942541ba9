/**
 * The loopback browser host: the built renderer and the app's router over HTTP on
 * 127.0.0.1, so the whole app runs in a plain browser. Protocol (see src/lib/bridge.ts):
 * - `GET /…` serves `out/renderer`, `index.html` with the per-launch token meta;
 * - `POST /bridge/<channel>` with `X-Adoption-Token` and a JSON body (≤ 1 MiB) answers the
 *   result envelope as JSON, status 200 even for error results;
 * - `GET /events?token=…` streams the core's events (Server-Sent Events).
 * Every request with a foreign `Host` or `Origin` gets 403, as does a missing or wrong token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { err, type Result } from '../../src/shared/result';
import type { Router } from '../core/router';
import { createEventStreams, type EventSourceLike } from './event-stream';
import { checkOrigin, createToken, ownHosts, tokenMatches } from './request-guard';
import { SECURITY_HEADERS, sendPlain, serveStatic } from './static-files';
import { BRIDGE_PREFIX, EVENTS_PATH, HOST_TOKEN_HEADER } from '../../src/shared/host-protocol';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface BrowserHostOptions {
  router: Router;
  events: EventSourceLike;
  /** The built renderer; default `out/renderer` (relative to the working directory). */
  rendererDir?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Loopback only; default 127.0.0.1. */
  host?: string;
  /** Fixed token (tests); default: 32 random bytes per launch. */
  token?: string;
  heartbeatMs?: number;
  logError?: (message: string) => void;
}

export interface BrowserHost {
  /** The address to open, e.g. `http://127.0.0.1:43121/`. */
  readonly url: string;
  readonly token: string;
  readonly port: number;
  stop(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

class BodyTooLarge extends Error {}

/** Reads the body; past 1 MiB it keeps draining (so the 413 reaches the client) and rejects. */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) reject(new BodyTooLarge());
      else resolveBody(Buffer.concat(chunks).toString('utf8'));
    });
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: Result<unknown>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'Cache-Control': 'no-store',
  });
  response.end(text);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const bindHost = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(bindHost)) throw new Error(`The browser host listens on this computer only, not on ${bindHost}.`);
  const rendererDir = resolve(options.rendererDir ?? 'out/renderer');
  const token = options.token ?? createToken();
  const logError = options.logError ?? ((message: string) => console.error(message));
  const streams = createEventStreams(options.events, options.heartbeatMs ?? 15_000);
  let allowedHosts = new Set<string>();

  async function bridge(channel: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!tokenMatches(request.headers[HOST_TOKEN_HEADER], token))
      return sendPlain(response, 403, 'Forbidden: bad token');
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) return sendPlain(response, 415, 'The body must be application/json');
    if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
      response.setHeader('Connection', 'close');
      request.resume();
      return sendPlain(response, 413, 'The request body is larger than 1 MiB');
    }
    let text: string;
    try {
      text = await readBody(request);
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendPlain(response, 413, 'The request body is larger than 1 MiB');
      throw error;
    }
    let input: unknown;
    try {
      input = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      return sendJson(response, 200, err('invalid_request', 'The request body is not valid JSON.'));
    }
    sendJson(response, 200, await options.router.handle(channel, input));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const verdict = checkOrigin(request, allowedHosts);
    if (!verdict.allowed) return sendPlain(response, 403, `Forbidden: ${verdict.reason}`);
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const method = request.method ?? 'GET';
    const channel = url.pathname.startsWith(BRIDGE_PREFIX) ? url.pathname.slice(BRIDGE_PREFIX.length) : '';
    if (channel && !channel.includes('/')) {
      if (method !== 'POST') return sendPlain(response, 405, 'Use POST');
      // channel names are plain identifiers: an encoded segment is simply an unknown channel
      return bridge(channel, request, response);
    }
    if (url.pathname === EVENTS_PATH) {
      if (method !== 'GET') return sendPlain(response, 405, 'Use GET');
      if (!tokenMatches(url.searchParams.get('token'), token)) return sendPlain(response, 403, 'Forbidden: bad token');
      return streams.open(request, response);
    }
    if (url.pathname.startsWith('/bridge')) return sendPlain(response, 404, 'Not found');
    if (method !== 'GET' && method !== 'HEAD') return sendPlain(response, 405, 'Use GET');
    return serveStatic(rendererDir, url.pathname, token, response, method === 'HEAD');
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      logError(`browser host: ${request.method} ${request.url?.split('?')[0]} failed (${String(error)})`);
      if (!response.headersSent) sendPlain(response, 500, 'Internal error');
      else response.destroy();
    });
  });

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = ownHosts(bindHost === 'localhost' ? '127.0.0.1' : bindHost, port);
  const urlHost = bindHost === '::1' ? '[::1]' : bindHost === 'localhost' ? '127.0.0.1' : bindHost;

  return {
    url: `http://${urlHost}:${port}/`,
    token,
    port,
    async stop() {
      streams.closeAll();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}
