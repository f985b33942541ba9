/**
 * The organisation's proxy logins as staff manage them (Keys and profiles, "Proxy login"): which
 * proxies have one (user names only: a password is never read back from the keychain) and which
 * asked for one (a 407 this run). Saving one lets every profile's queue go on at once.
 */
import { t } from '../language';
import { type ChannelOutput, isShortSecret, SHORT_SECRET_LENGTH } from '../shared/app-api/api';
import type { AdoptionApi } from '../shared/app-api/client';

type Logins = ChannelOutput<'proxyLogins'>;

export class ProxyLoginsStore {
  logins = $state.raw<Logins['logins']>([]);
  asked = $state.raw<string[]>([]);
  busy = $state(false);
  // The sentences are kept as how to say them, so they follow the language shown.
  #message = $state<(() => string) | null>(null);
  #error = $state<(() => string) | null>(null);
  #warning = $state<(() => string) | null>(null);

  constructor(
    private readonly api: Pick<AdoptionApi, 'proxyLogins' | 'setProxyLogin' | 'clearProxyLogin'>,
    private readonly onSaved: () => void = () => {},
  ) {}

  /** What the last action did ("Proxy login saved for …"), in the language shown. */
  get message(): string | null {
    return this.#message?.() ?? null;
  }

  /** Why the last action or the list failed, in the language shown. */
  get error(): string | null {
    return this.#error?.() ?? null;
  }

  /** What staff should know of the password just saved (it is short: easy to guess, hidden as a word only). */
  get warning(): string | null {
    return this.#warning?.() ?? null;
  }

  async load(): Promise<void> {
    const result = await this.api.proxyLogins({});
    if (!result.ok) {
      const { message } = result.error;
      this.#error = () => message;
      return;
    }
    this.logins = result.data.logins;
    this.asked = result.data.asked;
  }

  /** Keeps the login in the keychain; true when saved (the password field is then emptied by the form). */
  async save(proxy: string, username: string, password: string): Promise<boolean> {
    this.#message = null;
    this.#error = null;
    this.#warning = null;
    this.busy = true;
    const result = await this.api.setProxyLogin({ proxy: proxy.trim(), username: username.trim(), password });
    this.busy = false;
    if (!result.ok) {
      const { message } = result.error;
      this.#error = () => t('shell.proxyNotSaved', { reason: message });
      return false;
    }
    const saved = proxy.trim();
    this.#message = () => t('shell.proxySaved', { proxy: saved });
    if (isShortSecret(password)) this.#warning = () => t('shell.proxyShort', { min: SHORT_SECRET_LENGTH });
    this.onSaved();
    await this.load();
    return true;
  }

  async remove(proxy: string): Promise<void> {
    this.#message = null;
    this.#error = null;
    this.#warning = null;
    const result = await this.api.clearProxyLogin({ proxy });
    if (!result.ok) {
      const { message } = result.error;
      this.#error = () => t('shell.proxyNotRemoved', { reason: message });
      return;
    }
    this.#message = () => t('shell.proxyRemoved', { proxy });
    await this.load();
  }
}
