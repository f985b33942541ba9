/**
 * Which way a request goes: straight to the service or through the organisation's proxy, as the
 * machine is set up. Electron asks Chromium (`session.resolveProxy(url)`: the system's settings
 * and PAC scripts, answered in PAC form, e.g. "PROXY proxy.corp:3128; DIRECT"); the browser host
 * reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY as curl does. A proxied request is sent with undici's
 * fetch and its ProxyAgent, always through a CONNECT tunnel to an https:// service: the proxy sees
 * the host name, never the key or the data. A proxy login, when saved, goes as
 * `Proxy-Authorization: Basic …` on the CONNECT request.
 *
 * Two rules keep the key from any proxy (issue 31, item 4), whatever the resolver answers:
 * - a loopback destination (127.0.0.0/8, [::1], `localhost`, `*.localhost`) is never proxied, as
 *   Chromium's implicit bypass rules do for manual settings and PAC scripts alike (net/docs/proxy.md,
 *   "Implicit bypass rules", since M71/M72) and Go's net/http does for HTTP_PROXY; curl does not
 *   (it proxies 127.0.0.1 unless NO_PROXY names it), and `NO_PROXY=localhost` does not name
 *   127.0.0.1. A proxy that answered for this computer's own address would be a man in the middle;
 * - an http:// destination that is not loopback is not sent through any proxy: refused
 *   (`ProxyRefused`), not tunnelled. A CONNECT (or SOCKS) tunnel around plain HTTP hides nothing,
 *   since the proxy relays and can read every byte, the bearer key included; and many proxies allow
 *   CONNECT to port 443 only. A profile's address cannot be such an address anyway
 *   (`normaliseBaseUrl` allows http:// for loopback only): this is the rule's second line.
 */
import { BlockList, isIP } from 'node:net';
import { fetch as undiciFetch, ProxyAgent, Socks5ProxyAgent, type Dispatcher } from 'undici';
import { t } from '../../../src/shared/i18n';

/** One way to the service; `https` is an HTTP proxy reached over TLS (PAC "HTTPS host:port"). */
export type ProxyRoute = { kind: 'direct' } | { kind: 'http' | 'https' | 'socks5'; host: string; port: number };

/** Finds the ways to a URL, in order of preference (only the first usable one is taken). */
export interface ProxyResolver {
  resolve(url: URL): Promise<ProxyRoute[]>;
}

export const DIRECT: ProxyRoute = { kind: 'direct' };

/** "proxy.corp:3128", the name a proxy is shown and its login kept by. */
export function proxyName(route: ProxyRoute): string | null {
  return route.kind === 'direct' ? null : `${route.host}:${route.port}`;
}

/** What Diagnostics says of the way a request went: "DIRECT", "PROXY proxy.corp:3128", "SOCKS5 …". */
export function routeLabel(route: ProxyRoute): string {
  if (route.kind === 'direct') return 'DIRECT';
  return `${route.kind === 'http' ? 'PROXY' : route.kind.toUpperCase()} ${proxyName(route)}`;
}

function hostPort(text: string, defaultPort: number): { host: string; port: number } | null {
  const match = /^\[?([^\]\s]+?)\]?(?::(\d{1,5}))?$/.exec(text.trim());
  if (!match?.[1]) return null;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  return port > 0 && port < 65536 ? { host: match[1], port } : null;
}

/**
 * Reads a PAC answer ("PROXY a:8080; SOCKS5 b:1080; DIRECT") as routes, keeping those this app can
 * use (DIRECT, PROXY, HTTPS, SOCKS, SOCKS5) in order. An empty or unreadable answer is DIRECT.
 */
export function parsePacResult(text: string): ProxyRoute[] {
  const routes: ProxyRoute[] = [];
  for (const part of text.split(';')) {
    const [word = '', rest = ''] = part.trim().split(/\s+/, 2);
    const type = word.toUpperCase();
    if (type === 'DIRECT') routes.push(DIRECT);
    const kind =
      type === 'PROXY' ? 'http' : type === 'HTTPS' ? 'https' : type === 'SOCKS' || type === 'SOCKS5' ? 'socks5' : null;
    const address = kind ? hostPort(rest, kind === 'https' ? 443 : kind === 'socks5' ? 1080 : 80) : null;
    if (kind && address) routes.push({ kind, ...address });
  }
  return routes.length > 0 ? routes : [DIRECT];
}

/** Electron: Chromium's own resolution for the URL (system settings, PAC), `session.resolveProxy`. */
export function chromiumProxyResolver(resolveProxy: (url: string) => Promise<string>): ProxyResolver {
  return {
    async resolve(url) {
      return parsePacResult(await resolveProxy(url.href));
    },
  };
}

const LOOPBACK_ADDRESSES = new BlockList();
LOOPBACK_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK_ADDRESSES.addAddress('::1', 'ipv6');

/**
 * Whether a URL's host is this computer's loopback: 127.0.0.0/8, ::1 (an IPv4-mapped
 * ::ffff:127.x.y.z too), `localhost` and any name under it (RFC 6761 §6.3; Chromium and the
 * browser host resolve `*.localhost` to loopback), with or without the root's trailing dot.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const family = isIP(host);
  if (family !== 0) return LOOPBACK_ADDRESSES.check(host, family === 6 ? 'ipv6' : 'ipv4');
  return host === 'localhost' || host.endsWith('.localhost');
}

/** Refused before anything was sent: the request would have shown the key to a proxy. */
export class ProxyRefused extends Error {
  override readonly name = 'ProxyRefused';
}

/** Whether NO_PROXY (curl's rules: `*`, host names and their subdomains, `.suffix`, an optional :port) covers the URL. */
export function noProxyCovers(noProxy: string, url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    // "[::1]:8080" and "[::1]", or a bare IPv6 address (more than one colon), or "host:port"
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    const plain = bracketed ? null : /^([^:]*)(?::(\d+))?$/.exec(entry);
    const name = (bracketed?.[1] ?? plain?.[1] ?? entry).replace(/^\*?\./, '');
    const onPort = bracketed?.[2] ?? plain?.[2];
    if (onPort && onPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The browser host: HTTPS_PROXY for https://, HTTP_PROXY for http:// (either case), NO_PROXY for exceptions. */
export function envProxyResolver(env: NodeJS.ProcessEnv): ProxyResolver {
  const read = (name: string) => env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? '';
  return {
    async resolve(url) {
      if (isLoopbackHost(url.hostname)) return [DIRECT];
      const setting = (url.protocol === 'https:' ? read('https_proxy') : read('http_proxy')).trim();
      if (!setting || noProxyCovers(read('no_proxy'), url)) return [DIRECT];
      let proxy: URL;
      try {
        proxy = new URL(setting.includes('://') ? setting : `http://${setting}`);
      } catch {
        return [DIRECT];
      }
      const kind = proxy.protocol === 'https:' ? 'https' : proxy.protocol.startsWith('socks') ? 'socks5' : 'http';
      const address = hostPort(proxy.host, kind === 'https' ? 443 : kind === 'socks5' ? 1080 : 80);
      return address ? [{ kind, ...address }] : [DIRECT];
    },
  };
}

export interface ProxyLogin {
  username: string;
  password: string;
}

/** How one request is sent: the fetch to use and what Diagnostics says of the way. */
export interface Route {
  fetch: typeof fetch;
  /** "DIRECT" or "PROXY host:port" (…). */
  label: string;
  /** The proxy's name when proxied ("proxy.corp:3128"), else null. */
  proxy: string | null;
}

/**
 * The ways of the core's requests: resolves each URL's route and keeps one agent per proxy (and
 * login), closed when a login changes.
 */
export class ProxyRouter {
  readonly #agents = new Map<string, Dispatcher>();

  constructor(
    private readonly resolver: ProxyResolver,
    private readonly loginFor: (proxy: string) => Promise<ProxyLogin | null>,
    private readonly directFetch: typeof fetch,
  ) {}

  /** The way to `url`; throws `ProxyRefused` when the only way would show the request to a proxy in clear. */
  async route(url: URL): Promise<Route> {
    const direct: Route = { fetch: this.directFetch, label: 'DIRECT', proxy: null };
    // Whatever the resolver says (a PAC script may name a proxy for anything): never for loopback.
    if (isLoopbackHost(url.hostname)) return direct;
    const [first = DIRECT] = (await this.resolver.resolve(url)).filter(
      (route) => route.kind !== 'socks5' || url.protocol === 'https:' || url.protocol === 'http:',
    );
    if (first.kind === 'direct') return direct;
    const name = proxyName(first) ?? '';
    if (url.protocol !== 'https:')
      throw new ProxyRefused(t('core.proxyPlainHttp', { origin: url.origin, proxy: name }));
    const login = await this.loginFor(name).catch(() => null);
    const agent = this.#agent(first, login);
    const proxied = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
      undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher: agent,
      })) as unknown as typeof fetch;
    return { fetch: proxied, label: routeLabel(first), proxy: name };
  }

  /** A login was saved or removed: agents made with the old one are closed. */
  forget(proxy: string): void {
    for (const [key, agent] of this.#agents) {
      if (key.startsWith(`${proxy}|`)) {
        this.#agents.delete(key);
        void agent.close().catch(() => undefined);
      }
    }
  }

  async close(): Promise<void> {
    const agents = [...this.#agents.values()];
    this.#agents.clear();
    await Promise.all(agents.map((agent) => agent.close().catch(() => undefined)));
  }

  #agent(route: Exclude<ProxyRoute, { kind: 'direct' }>, login: ProxyLogin | null): Dispatcher {
    const name = `${route.host}:${route.port}`;
    const key = `${name}|${route.kind}|${login ? `${login.username}:${login.password}` : ''}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      agent =
        route.kind === 'socks5'
          ? new Socks5ProxyAgent(`socks5://${name}`, login ?? {})
          : new ProxyAgent({
              uri: `${route.kind === 'https' ? 'https' : 'http'}://${name}`,
              // Always a tunnel (only https:// is proxied, see route): the key travels inside TLS.
              proxyTunnel: true,
              ...(login
                ? { token: `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}` }
                : {}),
            });
      this.#agents.set(key, agent);
    }
    return agent;
  }
}

/**
 * Whether a failed request was refused by its proxy for want of a login (407): in forwarding form
 * undici throws "Proxy Authentication Required (407)", through a tunnel "Proxy response (407) !== 200".
 */
export function proxyAsksLogin(error: unknown): boolean {
  for (let link: unknown = error, depth = 0; link instanceof Error && depth < 6; depth += 1) {
    if (/\(407\)/.test(link.message)) return true;
    link = link.cause;
  }
  return false;
}
