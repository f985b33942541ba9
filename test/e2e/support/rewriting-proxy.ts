/**
 * A misbehaving service for e2e tests: a loopback HTTP proxy in front of the real local
 * service that passes every request and answer through (status, headers, rate-limit headers,
 * bearer key) and can rewrite the body of a 2xx answer, so a test can make the service answer
 * what a buggy or migrating server might (two records with one id, another animal's record).
 *
 * `proxiedTest` is the e2e `test` with the fixture service behind such a proxy: the app's
 * Local demo profile talks to the proxy, and the test sets `rewriting.rewrite` when it wants a
 * misbehaviour, or `rewriting.answerInstead` to answer some requests in the service's place.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { test as base, type E2eService } from '../fixtures';

export interface ProxiedRequest {
  method: string;
  /** Path below the service's base address, with the query (e.g. `/pets?limit=20`). */
  path: string;
}

/** Returns the new body text of a 2xx answer, or null to pass it through unchanged. */
export type Rewrite = (request: ProxiedRequest, body: string) => string | null;

/** An answer given in the service's place (the request never reaches it). */
export interface StandInAnswer {
  status: number;
  /** JSON, e.g. an Error body of interface.md: `{ code, message, status }`. */
  body: string;
}

/** Given each request and its body text: an answer in the service's place, or null to forward it. */
export type AnswerInstead = (request: ProxiedRequest, body: string) => StandInAnswer | null;

export interface RewritingProxy {
  /** Sends everything to the service at `upstreamUrl`; returns the proxy's base address (same path). */
  forwardTo(upstreamUrl: string): string;
  rewrite: Rewrite | null;
  /** The answers that were rewritten, in order. */
  readonly rewritten: ProxiedRequest[];
  /**
   * Answers some requests itself, as the service would (a refusal the app cannot provoke, since it
   * validates as the service does). The same in both e2e projects: the core (in the test process
   * or in Electron's main) sends its HTTP requests here either way.
   */
  answerInstead: AnswerInstead | null;
  /** The requests answered in the service's place, in order. */
  readonly answeredInstead: ProxiedRequest[];
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startRewritingProxy(): Promise<RewritingProxy> {
  let upstream: URL | null = null;
  const sockets = new Set<Socket>();
  const rewritten: ProxiedRequest[] = [];
  const answeredInstead: ProxiedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      if (!upstream) throw new Error('the proxy has no upstream yet');
      const basePath = upstream.pathname.replace(/\/$/, '');
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
      }
      const path = request.url ?? '/';
      const method = request.method ?? 'GET';
      const relative = { method, path: path.startsWith(basePath) ? path.slice(basePath.length) : path };
      const instead = proxy.answerInstead?.(relative, body.toString('utf8')) ?? null;
      if (instead) {
        answeredInstead.push(relative);
        response.writeHead(instead.status, {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(instead.body)),
        });
        response.end(instead.body);
        return;
      }
      let answer: Response;
      try {
        answer = await fetch(`${upstream.origin}${path}`, {
          method,
          headers,
          redirect: 'manual',
          ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
        });
      } catch {
        response.destroy(); // the service is down: so is the proxy
        return;
      }
      let text = await answer.text();
      const changed = answer.ok && proxy.rewrite ? proxy.rewrite(relative, text) : null;
      if (changed !== null) {
        text = changed;
        rewritten.push(relative);
      }
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
      });
      response.writeHead(answer.status, { ...out, 'Content-Length': String(Buffer.byteLength(text)) });
      response.end(text);
    })().catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxy: RewritingProxy = {
    forwardTo(upstreamUrl) {
      upstream = new URL(upstreamUrl);
      return `${origin}${upstream.pathname.replace(/\/$/, '')}`;
    },
    rewrite: null,
    rewritten,
    answerInstead: null,
    answeredInstead,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return proxy;
}

/** The e2e `test`, with the fixture service behind a rewriting proxy (`rewriting`). */
export const proxiedTest = base.extend<{ rewriting: RewritingProxy }>({
  // eslint-disable-next-line no-empty-pattern
  rewriting: async ({}, use) => {
    const proxy = await startRewritingProxy();
    await use(proxy);
    await proxy.stop();
  },
  // The host points Local demo at `service.url`: here, the proxy's.
  service: async ({ service, rewriting: proxy }, use) => {
    const url = proxy.forwardTo(service.url);
    await use(Object.create(service, { url: { value: url, enumerable: true } }) as E2eService);
  },
});
