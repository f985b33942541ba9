/**
 * A scripted `fetch` for core tests. It records every request (time on the fake clock,
 * method, URL, headers, body) and answers with what the script returns for it: a reply,
 * a network error, or a reply that arrives after some fake-clock time.
 */
import type { FakeClock } from '../../support/fake-clock';

export interface RecordedRequest {
  at: number;
  method: string;
  url: string;
  headers: Headers;
  body: string | null;
  redirect: RequestRedirect | undefined;
  signal: AbortSignal | null;
}

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Fake-clock ms before the response headers arrive. */
  delayMs?: number;
}

export type Script = (request: RecordedRequest, index: number) => FakeReply | 'network-error' | 'hang';

export interface FakeFetch {
  fetch: typeof fetch;
  requests: RecordedRequest[];
}

export function createFakeFetch(clock: FakeClock, script: Script): FakeFetch {
  const requests: RecordedRequest[] = [];
  const fakeFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const request: RecordedRequest = {
      at: clock.now(),
      method: init.method ?? 'GET',
      url: String(input),
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : null,
      redirect: init.redirect,
      signal: init.signal ?? null,
    };
    requests.push(request);
    const reply = script(request, requests.length - 1);
    if (reply === 'network-error') throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    await new Promise<void>((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (reply === 'hang') return;
      if (reply.delayMs) clock.setTimeout(resolve, reply.delayMs);
      else resolve();
    });
    if (reply === 'hang') throw new Error('unreachable');
    const body =
      reply.body === undefined ? null : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    const status = reply.status;
    const nullBody = status === 204 || status === 304 || (status >= 300 && status < 400 && body === null);
    return new Response(nullBody ? null : body, { status, headers: reply.headers ?? {} });
  };
  return { fetch: fakeFetch as typeof fetch, requests };
}

/** Rate-limit headers as the service sends them, from a fake-clock time. */
export function rateHeaders(now: number, limit: number, remaining: number, resetInMs: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil((now + resetInMs) / 1000)),
    Date: new Date(now).toUTCString(),
  };
}
