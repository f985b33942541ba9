/**
 * One HTTP exchange over an injected `fetch` (Node's own, in the app and the host: see
 * electron/main/index.ts for why not `net.fetch`): the bearer key added here and only here,
 * a headers timeout and a total timeout on the injected clock, the caller's cancellation,
 * redirects followed only within the origin (never elsewhere with the key), and a response
 * body cap read as a stream.
 */
import type { Clock } from '../../../src/shared/basics/clock';
import { t } from '../../../src/shared/i18n';
import type { AppError } from '../../../src/shared/app-api/result';
import { BodyTooLarge, readCapped } from './capped-body';
import { proxyAsksLogin, ProxyRefused, type Route } from './proxy';

export const HEADERS_TIMEOUT_MS = 15_000;
export const TOTAL_TIMEOUT_MS = 30_000;
/** The largest response body read; a larger one is `bad_response`. */
export const MAX_RESPONSE_BODY_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  /** Extra headers (never `Authorization`: the key goes in `bearerKey`). */
  headers?: Record<string, string>;
  body?: string;
  bearerKey: string;
  /** The origin `bearerKey` is bound to: a request to any other origin is refused unsent. */
  keyOrigin: string;
  signal?: AbortSignal;
}

export interface HttpOptions {
  fetch: typeof fetch;
  /** The way to each URL (the organisation's proxy, see proxy.ts); without it, `fetch` straight. */
  route?: (url: URL) => Promise<Route>;
  clock: Clock;
  headersTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBodyBytes?: number;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
}

type HttpOutcome =
  | { kind: 'response'; response: HttpResponse }
  /** No usable response: `offline`, `timeout`, `cancelled`, `bad_response` or `proxy_auth`; headers when some came. */
  | { kind: 'failure'; error: AppError; headers: Headers | null; status: number | null };

export type HttpExchange = HttpOutcome & {
  /** The way the request went: "DIRECT" or "PROXY host:port" (Diagnostics). */
  via: string;
};

/** What staff read of a failed exchange, in the core's language (read when used: the language may change). */
export const MESSAGES = {
  get offline() {
    return t('core.offline');
  },
  get timeout() {
    return t('core.timeout');
  },
  get cancelled() {
    return t('core.cancelled');
  },
  get tooLarge() {
    return t('core.tooLarge');
  },
  get redirect() {
    return t('core.redirect');
  },
  get keyOrigin() {
    return t('core.keyOrigin');
  },
  get tooManyRedirects() {
    return t('core.tooManyRedirects');
  },
  get proxySettings() {
    return t('core.proxySettings');
  },
};

/** What staff read when their organisation's proxy wants a login (the login is kept in the keychain). */
export const proxyLoginMessage = (proxy: string): string => t('core.proxyLogin', { proxy });
const proxyUnreachable = (proxy: string): string => t('core.proxyUnreachable', { proxy });

type AbortCause = 'timeout' | 'cancelled' | null;

/** Sends one request and reads its body, never throwing. */
export async function sendHttp(request: HttpRequest, options: HttpOptions): Promise<HttpExchange> {
  // Defence in depth: the key goes to the origin it was saved for and nowhere else.
  if (request.url.origin !== request.keyOrigin)
    return { ...failure('no_key', MESSAGES.keyOrigin, null), via: 'DIRECT' };
  let route: Route = { fetch: options.fetch, label: 'DIRECT', proxy: null };
  if (options.route) {
    try {
      route = await options.route(request.url);
    } catch (error) {
      // A way that would show the key to a proxy: nothing is sent until the address changes.
      if (error instanceof ProxyRefused) {
        const refused = failure('not_configured', error.message, null);
        refused.error.notSent = true;
        return { ...refused, via: 'unknown' };
      }
      const unsent = failure('offline', MESSAGES.proxySettings, null);
      unsent.error.notSent = true;
      return { ...unsent, via: 'unknown' };
    }
  }
  return { ...(await exchange(request, options, route)), via: route.label };
}

async function exchange(request: HttpRequest, options: HttpOptions, route: Route): Promise<HttpOutcome> {
  const { clock } = options;
  const controller = new AbortController();
  let cause: AbortCause = null;
  const abort = (why: Exclude<AbortCause, null>): void => {
    if (cause === null) cause = why;
    controller.abort(new Error(why));
  };
  const onCallerAbort = (): void => abort('cancelled');
  if (request.signal?.aborted) return failure('cancelled', MESSAGES.cancelled, null);
  request.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const total = clock.setTimeout(() => abort('timeout'), options.totalTimeoutMs ?? TOTAL_TIMEOUT_MS);
  const headersTimer = clock.setTimeout(() => abort('timeout'), options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS);
  let received: Response | null = null;
  const hops = { answered: 0 };
  try {
    received = await fetchFollowingSameOrigin(request, route.fetch, controller.signal, hops);
    clock.clearTimeout(headersTimer);
    if (received.status >= 300 && received.status < 400) {
      // a redirect left unfollowed: it pointed to another origin
      await received.body?.cancel().catch(() => undefined);
      return failure('bad_response', MESSAGES.redirect, received);
    }
    const maxBytes = options.maxBodyBytes ?? MAX_RESPONSE_BODY_BYTES;
    if (Number(received.headers.get('Content-Length')) > maxBytes) {
      await received.body?.cancel().catch(() => undefined);
      throw new BodyTooLarge(maxBytes);
    }
    const text = await readCapped(received.body, maxBytes, { signal: controller.signal });
    return { kind: 'response', response: { status: received.status, headers: received.headers, text } };
  } catch (error) {
    if (error instanceof BodyTooLarge) return failure('bad_response', MESSAGES.tooLarge, received);
    if (error instanceof TooManyRedirects) return failure('bad_response', MESSAGES.tooManyRedirects, null);
    if (error instanceof OpaqueRedirect) return failure('bad_response', MESSAGES.redirect, null);
    if (cause === 'timeout') return failure('timeout', MESSAGES.timeout, received);
    if (cause === 'cancelled') return failure('cancelled', MESSAGES.cancelled, received);
    if (route.proxy && proxyAsksLogin(error)) {
      // The proxy refused before anything reached the service.
      const login = failure('proxy_auth', proxyLoginMessage(route.proxy), null);
      login.error.notSent = true;
      login.error.proxy = route.proxy;
      return login;
    }
    const offline = failure('offline', route.proxy ? proxyUnreachable(route.proxy) : MESSAGES.offline, received);
    // Only a failure of the first hop proves that the service saw nothing of this request.
    if (hops.answered === 0 && neverConnected(error)) offline.error.notSent = true;
    return offline;
  } finally {
    clock.clearTimeout(headersTimer);
    clock.clearTimeout(total);
    request.signal?.removeEventListener('abort', onCallerAbort);
  }
}

function failure(code: string, message: string, response: Response | null): Extract<HttpOutcome, { kind: 'failure' }> {
  return {
    kind: 'failure',
    error: { code, message, ...(response ? { status: response.status } : {}) },
    headers: response?.headers ?? null,
    status: response?.status ?? null,
  };
}

class TooManyRedirects extends Error {}
class OpaqueRedirect extends Error {}

/**
 * Socket errors of Node's fetch (the core's fetch in the app and the host) raised before any
 * byte was sent: undici rejects with `TypeError('fetch failed')` whose `cause.code` is one of these.
 */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether a rejected fetch proves no connection was made (so the request cannot have been acted on). */
export function neverConnected(error: unknown): boolean {
  for (let link: unknown = error, depth = 0; link instanceof Error && depth < 4; depth += 1) {
    const code = (link as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && NOT_CONNECTED_CODES.has(code)) return true;
    link = link.cause;
  }
  return false;
}

/**
 * Fetches with `redirect: 'manual'`. A redirect within the same origin is followed (at most
 * 3, the key added again); one to another origin is returned as is, and never followed.
 * The same under any `fetch`: Node's gives the 3xx with its Location; a browser-style one
 * gives an `opaqueredirect` (status 0, no Location: Fetch standard, "manual" redirect mode),
 * which is refused like a redirect elsewhere, as nothing says where it points.
 * `cache: 'no-store'`: rate-limit headers and `Date` must be the service's, never a cache's.
 */
async function fetchFollowingSameOrigin(
  request: HttpRequest,
  doFetch: typeof fetch,
  signal: AbortSignal,
  hops: { answered: number },
) {
  const origin = request.url.origin;
  let url = request.url;
  let method = request.method;
  let body = request.body;
  for (let hop = 0; ; hop += 1) {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...request.headers,
      Authorization: `Bearer ${request.bearerKey}`,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    // `cache` is missing from @types/node's RequestInit; undici accepts it (and has no cache).
    const init: RequestInit & { cache: 'no-store' } = {
      method,
      headers,
      body: body ?? null,
      redirect: 'manual',
      cache: 'no-store',
      signal,
    };
    const response = await doFetch(url, init);
    if (response.type === 'opaqueredirect') throw new OpaqueRedirect();
    hops.answered += 1;
    const location = response.headers.get('Location');
    const isRedirect = [301, 302, 303, 307, 308].includes(response.status) && location !== null;
    if (!isRedirect) return response;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return response;
    }
    if (next.origin !== origin) return response;
    if (hop >= MAX_REDIRECTS) throw new TooManyRedirects();
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = next;
  }
}
