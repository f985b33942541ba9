/**
 * Who may use the browser host: whoever opened one of its one-time launch URLs (as Jupyter
 * does). The host prints `http://<name>.localhost:PORT/?launch=<secret>`; the first load within
 * two minutes trades the secret for a session cookie (`HttpOnly; SameSite=Strict`, host-only on
 * the host's own name, so no other server on this computer ever gets it), and only that session
 * may load the app, call the app API or open the event stream. Nothing a local process can
 * fetch without the secret carries a token. Secrets and session ids are 32 random bytes; only
 * their SHA-256 is kept, so lookups leak no timing about the real values.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Clock, systemClock } from '../../src/shared/basics/clock';
import { LAUNCH_PARAM, sessionCookieName } from '../../src/shared/app-api/host-protocol';
import { currentLanguage, intlLocale, t } from '../../src/shared/i18n';

/** How long a launch link may be opened: long enough to click it, short for one found in a log or a history. */
export const LAUNCH_LINK_TTL_MS = 2 * 60_000;

const digest = (value: string): string => createHash('sha256').update(value).digest('hex');
const randomToken = (): string => randomBytes(32).toString('base64url');

/** The value of cookie `name` in a `Cookie` header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

export class LaunchSessions {
  readonly cookieName: string;
  /** The digest of each secret not used yet, and until when it may be. */
  readonly #unusedSecrets = new Map<string, number>();
  readonly #sessions = new Set<string>();

  constructor(
    port: number,
    /** The links' two minutes are elapsed time: a clock set back must not keep a link good for longer. */
    private readonly clock: Pick<Clock, 'monotonic'> = systemClock,
  ) {
    this.cookieName = sessionCookieName(port);
  }

  /** A fresh one-time launch URL on `origin` (e.g. `http://ad-….localhost:4321`), good for two minutes. */
  createLaunchUrl(origin: string): string {
    const secret = randomToken();
    const now = this.clock.monotonic();
    for (const [hashed, until] of this.#unusedSecrets) if (until <= now) this.#unusedSecrets.delete(hashed);
    this.#unusedSecrets.set(digest(secret), now + LAUNCH_LINK_TTL_MS);
    return `${origin}/?${LAUNCH_PARAM}=${secret}`;
  }

  /** Uses up `secret`: the new session id, or null when it is unknown, was used or is too old. */
  redeem(secret: string): string | null {
    const hashed = digest(secret);
    const until = this.#unusedSecrets.get(hashed);
    if (until === undefined) return null;
    this.#unusedSecrets.delete(hashed);
    if (this.clock.monotonic() >= until) return null;
    const session = randomToken();
    this.#sessions.add(digest(session));
    return session;
  }

  /** Whether a session, by its SHA-256 (what this host keeps of it), is one of this host's. */
  hasSessionDigest(sessionDigest: string): boolean {
    return this.#sessions.has(sessionDigest);
  }

  /** Whether the request carries one of this host's sessions. */
  hasSession(request: IncomingMessage): boolean {
    const value = readCookie(request.headers.cookie, this.cookieName);
    return value !== null && this.#sessions.has(digest(value));
  }

  /**
   * The `Set-Cookie` value of a session: no `Domain` (host-only), no `Max-Age` (gone with the
   * browser session), no `Secure` (plain http on loopback). Cookies are per host, not per port
   * (RFC 6265 §8.5): the port in the name keeps several hosts apart, and the Host/Origin checks
   * refuse it anywhere else.
   */
  cookieFor(session: string): string {
    return `${this.cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/`;
  }
}

/** The page a browser gets without a session: how to open the app. No script, no style. */
export function howToOpenPage(): string {
  // In the core's language: the system's (LANG…) as the host's command line set it, or the window's last choice.
  const language = intlLocale(currentLanguage());
  const example = `<code>http://….localhost:PORT/?${LAUNCH_PARAM}=…</code>`;
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${t('host.openPageTitle')}</title></head>
<body>
<h1>${t('host.openPageHeading')}</h1>
<p>${t('host.openPageWhy', { example })}</p>
<p>${t('host.openPageHow', { host: '<code>npm run host</code>', demo: '<code>npm run demo</code>' })}</p>
</body>
</html>
`;
}

/**
 * What a launch link answers when the browser arrived from another site (`Sec-Fetch-Site:
 * cross-site`: the demo's page on file://, or the earlier version's address after a recovery):
 * the session cookie and a page that goes on to `path` by itself. A redirect would not do: the
 * browser treats the whole redirect chain as cross-site and leaves the `SameSite=Strict` cookie out
 * of the next request (Chromium: the redirected load and even a reload came without it), while a
 * page of the host's own that refreshes is a same-site navigation. No script; the CSP stays.
 */
export function continuePage(path: string): string {
  const href = path.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!doctype html>
<html lang="${intlLocale(currentLanguage())}">
<head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>${t('host.openPageTitle')}</title></head>
<body><p><a href="${href}">${t('host.continueToApp')}</a></p></body>
</html>
`;
}
