/**
 * The loopback browser host: the built renderer and the app's router over HTTP on this
 * computer's loopback addresses, 127.0.0.1 and [::1] on one port (loopback-listen.ts says why
 * both), so the whole app runs in a plain browser. Protocol (src/shared/app-api/host-protocol.ts):
 * - `GET /?launch=<secret>` (a one-time launch URL, `createLaunchUrl`) sets the session
 *   cookie and redirects to the clean URL (launch-session.ts);
 * - with that session: `GET /…` serves `out/renderer`; `POST /api/<channel>` with a JSON
 *   body (≤ 1 MiB) answers the result envelope as JSON, status 200 even for error results;
 *   `GET /events` streams the core's events (Server-Sent Events).
 * Every request with a foreign `Host` or `Origin` gets 403, as does one without the session
 * (a page load gets a page that says how to open the app).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { API_PREFIX, EVENTS_PATH, LAUNCH_PARAM } from '../../src/shared/app-api/host-protocol';
import type { Clock } from '../../src/shared/basics/clock';
import { err, type Result } from '../../src/shared/app-api/result';
import { t } from '../../src/shared/i18n';
import { BodyTooLarge, readCapped, type Router } from '../core';
import { createEventStreams, type EventSourceLike } from './event-stream';
import type { EarlierQueueRecovery } from './earlier-origin';
import { continuePage, howToOpenPage, LaunchSessions } from './launch-session';
import { listenOnLoopback } from './loopback-listen';
import { checkOrigin, newSiteName, ownHosts } from './request-guard';
import { SECURITY_HEADERS, sendHtml, sendPlain, serveStatic } from './static-files';

/** The largest request body the host reads (a channel's JSON input). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

export interface BrowserHostOptions {
  router: Router;
  events: EventSourceLike;
  /** The built renderer; default `out/renderer` (relative to the working directory). */
  rendererDir?: string;
  /**
   * 0 (default) picks a port free on both loopback addresses. A port given is refused
   * (`AddressTakenError`) when 127.0.0.1 or [::1] is held there by another program.
   */
  port?: number;
  /**
   * The host's own name, a DNS label: the app is at `http://<siteName>.localhost:PORT` (browsers
   * resolve `*.localhost` to loopback), so its session cookie belongs to that name alone and no
   * other server on 127.0.0.1 is sent it. Default: a new random one (host-port.ts remembers one
   * per data folder).
   */
  siteName?: string;
  /**
   * An earlier version's queue to recover at `http://127.0.0.1:PORT` (earlier-origin.ts): a launch
   * goes through that page first while it is pending, and only its paths are served there.
   */
  earlierQueue?: EarlierQueueRecovery | null;
  /** Launch links expire on this clock (tests use a fake one). */
  clock?: Pick<Clock, 'monotonic'>;
  heartbeatMs?: number;
  logError?: (message: string) => void;
}

export interface BrowserHost {
  /** The host's origin URL, e.g. `http://ad-3k8x….localhost:43121/` (refused without a session). */
  readonly url: string;
  readonly port: number;
  /** A fresh one-time launch URL (two minutes, once), e.g. `http://ad-….localhost:43121/?launch=…`. */
  createLaunchUrl(): string;
  stop(): Promise<void>;
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
  const rendererDir = resolve(options.rendererDir ?? 'out/renderer');
  const logError = options.logError ?? ((message: string) => console.error(message));
  const streams = createEventStreams(options.events, options.heartbeatMs ?? 15_000);
  let allowedHosts = new Set<string>();
  let sessions = new LaunchSessions(0);
  let origin = '';
  let earlier: EarlierQueueRecovery | null = null;
  const recoveryHost = {
    newLaunchUrl: () => sessions.createLaunchUrl(origin),
    knowsSession: (sessionDigest: string) => sessions.hasSessionDigest(sessionDigest),
  };

  /**
   * `/?launch=<secret>`: the secret's first use sets the session; a used one only helps its own
   * browser. While an earlier version's queue waits (earlier-origin.ts), a new session goes through
   * its recovery page first (not the link that page hands back). A browser arriving from another
   * site gets a page that goes on by itself instead of a redirect (`continuePage` says why).
   */
  function launch(url: URL, request: IncomingMessage, response: ServerResponse): void {
    const secret = url.searchParams.get(LAUNCH_PARAM) ?? '';
    const returning = earlier?.isReturn(secret) ?? false;
    const session = sessions.redeem(secret);
    if (session === null && !sessions.hasSession(request)) return sendHtml(response, 403, howToOpenPage());
    const cookie = session === null ? {} : { 'Set-Cookie': sessions.cookieFor(session) };
    const recover = session !== null && !returning && earlier?.pending() === true;
    const fetchSite = request.headers['sec-fetch-site'];
    if (!recover && (fetchSite === 'cross-site' || fetchSite === 'same-site')) {
      response.writeHead(200, {
        ...SECURITY_HEADERS,
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        ...cookie,
      });
      return void response.end(continuePage(url.pathname));
    }
    response.writeHead(303, {
      ...SECURITY_HEADERS,
      Location: recover && session !== null && earlier ? earlier.startUrl(session) : url.pathname,
      'Cache-Control': 'no-store',
      ...cookie,
    });
    response.end();
  }

  async function call(channel: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) return sendPlain(response, 415, t('host.bodyNotJsonType'));
    if (Number(request.headers['content-length'] ?? 0) > MAX_REQUEST_BODY_BYTES) {
      response.setHeader('Connection', 'close');
      request.resume();
      return sendPlain(response, 413, t('host.bodyTooLarge'));
    }
    let text: string;
    try {
      // Past the limit it reads on to the end, so that the 413 reaches the client.
      // The cast: Node's typings of web streams and the DOM's differ; at run time both are WHATWG streams.
      text = await readCapped(Readable.toWeb(request) as ReadableStream<Uint8Array>, MAX_REQUEST_BODY_BYTES, {
        drain: true,
      });
    } catch (error) {
      if (error instanceof BodyTooLarge) return sendPlain(response, 413, t('host.bodyTooLarge'));
      throw error;
    }
    let input: unknown;
    try {
      input = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      return sendJson(response, 200, err('invalid_request', t('host.bodyNotJson')));
    }
    sendJson(response, 200, await options.router.handle(channel, input));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const verdict = checkOrigin(request, allowedHosts);
    if (!verdict.allowed) {
      // The earlier version's address serves its recovery page alone (earlier-origin.ts), nothing else.
      if (earlier?.pending() && earlier.answers(request)) return earlier.handle(request, response, recoveryHost);
      return sendPlain(response, 403, `Forbidden: ${verdict.reason}`);
    }
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const method = request.method ?? 'GET';
    const isGet = method === 'GET' || method === 'HEAD';
    if (method === 'GET' && url.searchParams.has(LAUNCH_PARAM)) return launch(url, request, response);
    if (!sessions.hasSession(request)) {
      return isGet ? sendHtml(response, 403, howToOpenPage()) : sendPlain(response, 403, 'Forbidden: no session');
    }
    const channel = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : '';
    if (channel && !channel.includes('/')) {
      if (method !== 'POST') return sendPlain(response, 405, t('host.usePost'));
      // channel names are plain identifiers: an encoded segment is simply an unknown channel
      return call(channel, request, response);
    }
    if (url.pathname === EVENTS_PATH) {
      if (method !== 'GET') return sendPlain(response, 405, t('host.useGet'));
      return streams.open(request, response);
    }
    if (`${url.pathname}/`.startsWith(API_PREFIX)) return sendPlain(response, 404, t('host.notFound'));
    if (!isGet) return sendPlain(response, 405, t('host.useGet'));
    return serveStatic(rendererDir, url.pathname, response, method === 'HEAD');
  }

  const makeServer = () =>
    createServer((request, response) => {
      handle(request, response).catch((error: unknown) => {
        logError(`browser host: ${request.method} ${request.url?.split('?')[0]} failed (${String(error)})`);
        if (!response.headersSent) sendPlain(response, 500, t('host.internalError'));
        else response.destroy();
      });
    });

  const { port, servers } = await listenOnLoopback(makeServer, options.port ?? 0);
  const site = `${options.siteName ?? newSiteName()}.localhost`;
  allowedHosts = ownHosts(site, port);
  sessions = new LaunchSessions(port, options.clock);
  origin = `http://${site}:${port}`;
  // Only at the earlier version's own port: its IndexedDB is at http://127.0.0.1:<that port>.
  earlier = options.earlierQueue?.port === port ? options.earlierQueue : null;

  return {
    url: `${origin}/`,
    port,
    createLaunchUrl: () => sessions.createLaunchUrl(origin),
    async stop() {
      streams.closeAll();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolveClose) => {
              server.close(() => resolveClose());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
