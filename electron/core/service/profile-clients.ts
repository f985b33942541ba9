/**
 * One rate-limit governor and service client per profile, made on first use and made again when
 * the profile's address changed; every call's outcome says whether the service is reachable (the
 * `connectivity` event) and is told to whoever watches calls (the keys), and every request goes
 * to the request log that Diagnostics shows.
 */
import type { EventName, EventPayload } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { t } from '../../../src/shared/i18n';
import type { Profile } from '../../../src/shared/records/profile';
import type { GovernorSnapshot } from '../../../src/shared/app-api/rate-limit';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import type { BoundKey, Scrubber } from '../keys';
import { RateLimitGovernor } from '../rate-limit';
import { ConnectivityTracker } from './connectivity';
import { DiagnosticsLog } from './diagnostics-log';
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from './service-client';

export interface ProfileClientsOptions {
  fetch: typeof fetch;
  clock: Clock;
  scrubber: Scrubber;
  /** The profile, null when there is none. */
  profileOf: (profileId: string) => Profile | null;
  getKey: (profileId: string) => Promise<BoundKey | null>;
  /** HTTP limits of every client, and the way to each address (the organisation's proxy). */
  http: ServiceClientOptions['http'];
  /** The rate the governors assume while a service tells none. */
  assumedRate?: number;
  emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void;
  /** Told before each call: what it returns is told the call's outcome. */
  watch: (profileId: string) => (result: Result<unknown>) => void;
}

interface ProfileClient {
  baseUrl: string;
  governor: RateLimitGovernor;
  client: ServiceClient;
  stopSnapshots: () => void;
}

const notConfigured = (profile: Profile | null) =>
  profile
    ? err('not_configured', t('core.profileNoAddress', { name: profile.name }))
    : err('not_configured', t('core.noSuchProfile'));

export class ProfileClients {
  /** Every request of every client (Diagnostics). */
  readonly diagnostics = new DiagnosticsLog();
  readonly #clients = new Map<string, ProfileClient>();
  readonly #idleGovernors = new Map<string, RateLimitGovernor>();
  readonly #connectivity: ConnectivityTracker;

  constructor(private readonly options: ProfileClientsOptions) {
    this.#connectivity = new ConnectivityTracker(options.clock, (payload) => options.emit('connectivity', payload));
  }

  /** Calls the profile's service with its client; a profile without an address is not configured. */
  async call<T>(profileId: string, call: (client: ServiceClient) => Promise<Result<T>>): Promise<Result<T>> {
    const entry = this.#clientFor(profileId);
    if (!('client' in entry)) return entry;
    const observe = this.options.watch(profileId);
    const result = await call(entry.client);
    this.#connectivity.observe(profileId, result);
    observe(result);
    return result;
  }

  /** The profile's governor as it stands; a profile without an address has an idle one. */
  governorSnapshot(profileId: string): Result<GovernorSnapshot> {
    const entry = this.#clientFor(profileId);
    if ('governor' in entry) return ok(entry.governor.snapshot());
    if (!this.options.profileOf(profileId)) return entry;
    // Nothing learnt, nothing queued.
    let idle = this.#idleGovernors.get(profileId);
    if (!idle)
      this.#idleGovernors.set(profileId, (idle = new RateLimitGovernor({ profileId, clock: this.options.clock })));
    return ok(idle.snapshot());
  }

  /** The profile's client and governor go (the profile was removed). */
  drop(profileId: string): void {
    const entry = this.#clients.get(profileId);
    if (!entry) return;
    this.#clients.delete(profileId);
    entry.stopSnapshots();
    entry.governor.dispose();
  }

  dispose(): void {
    for (const id of [...this.#clients.keys()]) this.drop(id);
    for (const governor of this.#idleGovernors.values()) governor.dispose();
    this.#idleGovernors.clear();
  }

  /** The profile's client, made on first use and made again when its address changed. */
  #clientFor(profileId: string): ProfileClient | Result<never> {
    const { options } = this;
    const profile = options.profileOf(profileId);
    if (!profile?.baseUrl) return notConfigured(profile);
    const existing = this.#clients.get(profileId);
    if (existing?.baseUrl === profile.baseUrl) return existing;
    this.drop(profileId);
    const governor = new RateLimitGovernor({
      profileId,
      clock: options.clock,
      ...(options.assumedRate ? { assumedRate: options.assumedRate } : {}),
    });
    const stopSnapshots = governor.onSnapshot((snapshot) => options.emit('governor', snapshot));
    const client = createServiceClient({
      fetch: options.fetch,
      baseUrl: profile.baseUrl,
      profileId,
      governor,
      clock: options.clock,
      getKey: () => options.getKey(profileId),
      scrubber: options.scrubber,
      onRequest: (entry) => this.diagnostics.add(entry),
      http: options.http,
    });
    const made = { baseUrl: profile.baseUrl, governor, client, stopSnapshots };
    this.#clients.set(profileId, made);
    return made;
  }
}
