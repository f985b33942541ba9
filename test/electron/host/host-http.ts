/**
 * Raw HTTP to the browser host for tests (so a test can send any `Host`, `Origin` or
 * `Cookie`, which fetch cannot), and opening a session as a browser does: the one-time
 * launch URL answers a redirect with the session cookie.
 */
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import type { BrowserHost } from '../../../electron/host';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SendInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent;
}

/**
 * Sends a request to the host over 127.0.0.1, with the host's own name in `Host` (a browser
 * resolves `<name>.localhost` to loopback by itself; Node's resolver may not) unless the test
 * gives another.
 */
export function send(host: Pick<BrowserHost, 'port' | 'url'>, path: string, init: SendInit = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: host.port,
        path,
        method: init.method ?? 'GET',
        headers: { Host: new URL(host.url).host, ...init.headers },
        ...(init.agent ? { agent: init.agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The path and query of a launch URL, e.g. `/?launch=…`. */
export const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Redeems a fresh launch URL and returns the `Cookie` header value of the session it gave. */
export async function openSession(host: BrowserHost): Promise<string> {
  const reply = await send(host, pathOf(host.createLaunchUrl()));
  const cookie = reply.headers['set-cookie']?.[0];
  if (reply.status !== 303 || !cookie) throw new Error(`the launch URL answered ${reply.status} without a session`);
  return cookie.split(';')[0] ?? '';
}
