/**
 * Who may talk to the browser host: only pages it served itself. Every request must name
 * the host's own address in `Host` (a DNS-rebinding page names its own domain there), a
 * present `Origin` must be the host's own, and the bridge and event stream need the
 * per-launch token, compared in constant time.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A fresh per-launch token: 32 random bytes as hex. */
export function createToken(): string {
  return randomBytes(32).toString('hex');
}

/** Constant-time comparison of a presented token with the real one. */
export function tokenMatches(presented: unknown, token: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(token, 'utf8');
  // Compare equal-length buffers always, so the length check leaks nothing useful.
  const same = timingSafeEqual(a.length === b.length ? a : b, b);
  return same && a.length === b.length;
}

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
