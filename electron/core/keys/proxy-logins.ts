/**
 * Logins for the organisation's proxy, kept in the OS keychain beside the API keys: one entry per
 * proxy (`proxy-login:<host:port>`, `{"v":1,"username":…,"password":…}`) and an index of the
 * proxies that have one (`proxy-login:index`). Profile ids cannot hold a colon, so these accounts
 * never meet a profile's. A password is never handed out of the core; the scrubber learns it (and
 * the Basic token made of it) so that no echo of it leaves the core either.
 */
import { z } from 'zod';
import type { ProxyLogin } from '../http';
import type { Scrubber } from './scrub';
import type { SecretStore } from './secret-store';

const INDEX = 'proxy-login:index';
const accountOf = (proxy: string) => `proxy-login:${proxy}`;
const Stored = z.object({ v: z.literal(1), username: z.string().min(1), password: z.string().min(1) });
const Index = z.array(z.string());

export class ProxyLogins {
  constructor(
    private readonly store: SecretStore,
    private readonly scrubber: Scrubber,
  ) {}

  /** The login kept for a proxy, or null (an entry in another form counts as none). */
  async get(proxy: string): Promise<ProxyLogin | null> {
    const text = await this.store.get(accountOf(proxy));
    if (text === null) return null;
    let parsed: z.ZodSafeParseResult<z.infer<typeof Stored>>;
    try {
      parsed = Stored.safeParse(JSON.parse(text));
    } catch {
      return null;
    }
    if (!parsed.success) return null;
    const { username, password } = parsed.data;
    this.#remember(username, password);
    return { username, password };
  }

  async set(proxy: string, login: ProxyLogin): Promise<void> {
    this.#remember(login.username, login.password);
    await this.store.set(accountOf(proxy), JSON.stringify({ v: 1, ...login }));
    const index = await this.#index();
    if (!index.includes(proxy)) await this.store.set(INDEX, JSON.stringify([...index, proxy].sort()));
  }

  async clear(proxy: string): Promise<boolean> {
    const had = await this.store.delete(accountOf(proxy));
    const index = await this.#index();
    if (index.includes(proxy)) await this.store.set(INDEX, JSON.stringify(index.filter((name) => name !== proxy)));
    return had;
  }

  /** The proxies with a login, and its user name (never the password). */
  async list(): Promise<Array<{ proxy: string; username: string }>> {
    const logins: Array<{ proxy: string; username: string }> = [];
    for (const proxy of await this.#index()) {
      const login = await this.get(proxy);
      if (login) logins.push({ proxy, username: login.username });
    }
    return logins;
  }

  async #index(): Promise<string[]> {
    const text = await this.store.get(INDEX);
    if (text === null) return [];
    try {
      const parsed = Index.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  }

  #remember(username: string, password: string): void {
    this.scrubber.remember(password);
    // the Basic token is "user:password" in base64: hidden whole too (a short password alone is
    // hidden only as a word of its own, which it is not inside the token)
    this.scrubber.remember(`${username}:${password}`);
  }
}
