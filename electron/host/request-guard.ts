/**
 * Which requests the browser host answers at all: every request must name the host's own
 * address in `Host` (a DNS-rebinding page names its own domain there), and a present
 * `Origin` must be the host's own. The session (launch-session.ts) is checked after this.
 */
import type { IncomingMessage } from 'node:http';

/** The `host:port` values this host answers to, e.g. `127.0.0.1:4321` and `localhost:4321`. */
export function ownHosts(bindHost: string, port: number): Set<string> {
  const hosts = new Set([`${bindHost}:${port}`]);
  if (bindHost === '127.0.0.1' || bindHost === '::1') hosts.add(`localhost:${port}`);
  if (bindHost === '::1') hosts.add(`[::1]:${port}`);
  return hosts;
}

export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

/** Checks `Host` and `Origin` of any request against the host's own addresses. */
export function checkOrigin(request: IncomingMessage, allowedHosts: ReadonlySet<string>): GuardVerdict {
  const host = request.headers.host?.toLowerCase();
  if (!host || !allowedHosts.has(host)) return { allowed: false, reason: 'foreign Host' };
  const origin = request.headers.origin;
  if (origin !== undefined) {
    const allowedOrigins = [...allowedHosts].map((h) => `http://${h}`);
    if (!allowedOrigins.includes(origin.toLowerCase())) return { allowed: false, reason: 'foreign Origin' };
  }
  return { allowed: true };
}
