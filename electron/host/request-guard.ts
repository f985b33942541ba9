/**
 * Which requests the browser host answers at all: every request must name the host's own
 * address in `Host` (a DNS-rebinding page names its own domain there; another server of this
 * computer is another name or 127.0.0.1), and a present `Origin` must be the host's own. The
 * session (launch-session.ts) is checked after this.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The `host:port` values this host answers to: its own name only, e.g. `ad-3k8x….localhost:4321`. */
export function ownHosts(site: string, port: number): Set<string> {
  return new Set([`${site}:${port}`]);
}

/** A fresh name for a host, `ad-` and 16 random letters and digits (a DNS label). */
export function newSiteName(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return `ad-${[...randomBytes(16)].map((byte) => alphabet[byte % alphabet.length]).join('')}`;
}

/** Whether `name` can be a host's own name (what host-port.ts remembers). */
export function isSiteName(name: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(name);
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
