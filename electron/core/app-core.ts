/**
 * The app core, wired once for both transports: profiles, API keys in the keychain, one
 * rate-limit governor and service client per profile, the request log, and the router
 * that serves every channel of the contract. Events (governor snapshots, connectivity,
 * profile changes) go out through `events`.
 */
import type { ChannelOutput } from '../../src/shared/api';
import { matchLanguage, t, useLanguage } from '../../src/shared/i18n';
import { type Clock, systemClock } from '../../src/shared/clock';
import type { Profile } from '../../src/shared/profile';
import { err, ok, type Result } from '../../src/shared/result';
import { createEventBus, createRouter, type EventBus, type Handlers, type Router } from './api';
import { DIRECT, type ProxyResolver, ProxyRouter } from './http';
import {
  KeychainUnavailableError,
  KeyService,
  KeyStatusTracker,
  ProxyLogins,
  Scrubber,
  type SecretStore,
} from './keys';
import { type BuiltInSource, ProfileStore } from './profiles';
import { RateLimitGovernor } from './rate-limit';
import { ConnectivityTracker, createServiceClient, DiagnosticsLog, type ServiceClientOptions } from './service';
import { SafetyCopy, type JournalFs } from './safety-copy';
import { readUpdateSettings, UpdatePolicy, type UpdaterPort } from './updates';

export interface AppCoreOptions {
  /** Node's `fetch`, in the app (electron/main/index.ts says why) and in the browser host. */
  fetch: typeof fetch;
  /** The app's data folder (profiles.json lives there). */
  dataDir: string;
  secretStore: SecretStore;
  /**
   * Where the Production and Staging addresses come from: in the installed app the organisation's
   * settings (managed-settings: policies, a checked machine-wide file, or the packaged file);
   * elsewhere `{ file: <resources>/profiles.json }`.
   */
  builtIns: BuiltInSource;
  /** The Local demo profile's address (default http://127.0.0.1:4010/v1). */
  localDemoUrl?: string;
  clock?: Clock;
  logError?: (message: string) => void;
  /**
   * The way to each service address through the organisation's proxy (Electron: Chromium's
   * resolution; the browser host: HTTPS_PROXY and friends). Without it every request goes direct.
   */
  proxy?: ProxyResolver;
  /** The safety copy's file system (tests inject a failing one: a full disk). */
  journalFs?: JournalFs;
  /** HTTP limits of every service client (tests shorten the 15 s headers / 30 s total timeouts). */
  http?: ServiceClientOptions['http'];
  /** The rate the governors assume while a service tells none (tests of other matters raise it). */
  assumedRate?: number;
  /**
   * The app's own updater (electron/main/updates.ts, in the installed app only), and whether the
   * installer was built with an update address (`app-update.yml`). Without it updates are off.
   */
  updates?: { port: UpdaterPort; builtFeed: boolean };
  /**
   * The languages the system prefers (Electron: `app.getPreferredSystemLanguages()`). Without it
   * (the browser host) the window goes by its browser's `navigator.languages`.
   */
  systemLanguages?: () => readonly string[];
}

export interface AppCore {
  router: Router;
  events: EventBus;
  /** The update rule (core/updates): the updater's events go to it, and its settings say where to look. */
  updates: UpdatePolicy;
  dispose(): Promise<void>;
}

type ServiceClient = ReturnType<typeof createServiceClient>;
interface ProfileClient {
  baseUrl: string;
  governor: RateLimitGovernor;
  client: ServiceClient;
  stopSnapshots: () => void;
}

/** What staff read when the safety copy could not be written (a full disk says so). */
function journalFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'full'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'denied'
        : 'failed';
  return t('core.journalFailure', { why });
}

const notConfigured = (profile: Profile | null) =>
  profile
    ? err('not_configured', t('core.profileNoAddress', { name: profile.name }))
    : err('not_configured', t('core.noSuchProfile'));

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const clock = options.clock ?? systemClock;
  // Until a window says which language it shows (useLanguage), the core speaks the system's.
  if (options.systemLanguages) await useLanguage(matchLanguage(options.systemLanguages()));
  // The one scrubber: it learns every key the core reads or is given, and everything that
  // leaves the core (router answers, events, log lines) goes through it.
  const scrubber = new Scrubber();
  const logError = (message: string): void =>
    (options.logError ?? ((line: string) => console.error(line)))(scrubber.text(message));
  const bus = createEventBus((error) => logError(`event listener failed: ${String(error)}`));
  const events: EventBus = { ...bus, emit: (event, payload) => bus.emit(event, scrubber.value(payload)) };
  const profiles = await ProfileStore.open({
    dataDir: options.dataDir,
    builtIns: options.builtIns,
    ...(options.localDemoUrl ? { localDemoUrl: options.localDemoUrl } : {}),
  });
  const keys = new KeyService(options.secretStore, {
    addressOf: (id) => profiles.get(id)?.baseUrl ?? null,
    profileExists: (id) => profiles.get(id) !== null,
    scrubber,
  });
  const diagnostics = new DiagnosticsLog();
  const connectivity = new ConnectivityTracker(clock, (payload) => events.emit('connectivity', payload));
  const keyStatus = new KeyStatusTracker({
    clock,
    emit: (payload) => events.emit('key', payload),
    hasKey: async (id) => {
      const has = await keys.hasKey(id);
      return has.ok ? has.data.hasKey : null;
    },
  });
  const safetyCopy = new SafetyCopy({
    dataDir: options.dataDir,
    clock,
    ...(options.journalFs ? { fs: options.journalFs } : {}),
    logError,
  });
  // A removal cut short by a crash (the profile gone, its journal not yet): staff were told its
  // unsent animals go with it, and nothing could ever send or settle them.
  for (const id of profiles.removedIds) {
    await safetyCopy.forget(id).catch((error: unknown) => logError(`removed profile ${id}: ${String(error)}`));
  }
  const proxyLogins = new ProxyLogins(options.secretStore, scrubber);
  const proxies = new ProxyRouter(
    options.proxy ?? { resolve: async () => [DIRECT] },
    (proxy) => proxyLogins.get(proxy),
    options.fetch,
  );
  /** Proxies that answered 407 this run and have no login that worked since. */
  const askedForLogin = new Set<string>();
  const clients = new Map<string, ProfileClient>();
  const idleGovernors = new Map<string, RateLimitGovernor>();

  function drop(profileId: string): void {
    const entry = clients.get(profileId);
    if (!entry) return;
    clients.delete(profileId);
    entry.stopSnapshots();
    entry.governor.dispose();
  }

  /** The profile's client, made on first use and remade when its address changed. */
  function clientFor(profileId: string): ProfileClient | Result<never> {
    const profile = profiles.get(profileId);
    if (!profile?.baseUrl) return notConfigured(profile);
    const existing = clients.get(profileId);
    if (existing?.baseUrl === profile.baseUrl) return existing;
    drop(profileId);
    const governor = new RateLimitGovernor({
      profileId,
      clock,
      ...(options.assumedRate ? { assumedRate: options.assumedRate } : {}),
    });
    const stopSnapshots = governor.onSnapshot((snapshot) => events.emit('governor', snapshot));
    const client = createServiceClient({
      fetch: options.fetch,
      baseUrl: profile.baseUrl,
      profileId,
      governor,
      clock,
      getKey: () => keys.getKey(profileId),
      scrubber,
      onRequest: (entry) => diagnostics.add(entry),
      http: { ...options.http, route: (url) => proxies.route(url) },
    });
    const made = { baseUrl: profile.baseUrl, governor, client, stopSnapshots };
    clients.set(profileId, made);
    return made;
  }

  async function withClient<T>(
    profileId: string,
    call: (client: ServiceClient) => Promise<Result<T>>,
  ): Promise<Result<T>> {
    const entry = clientFor(profileId);
    if (!('client' in entry)) return entry;
    const ticket = keyStatus.ticket(profileId);
    const result = await call(entry.client);
    if (!result.ok && result.error.code === 'proxy_auth' && result.error.proxy) askedForLogin.add(result.error.proxy);
    connectivity.observe(profileId, result);
    keyStatus.observe(profileId, result, ticket);
    return result;
  }

  /**
   * Sends a creation whose entry the safety copy holds, writing around it what a restore needs:
   * the attempt before it goes (if that cannot be written, nothing is sent: a restored entry must
   * never be sent blindly), whether it certainly did not reach the service, and the service's
   * acknowledgement (a failure to write that is logged; the renderer settles the entry again).
   */
  async function createKept<T extends { animal: { id: string } }>(
    profileId: string,
    idempotencyKey: string,
    send: () => Promise<Result<T>>,
  ): Promise<Result<T>> {
    try {
      await safetyCopy.attempt(profileId, idempotencyKey);
    } catch (error) {
      logError(`safety copy: the attempt could not be written (${String(error)}); nothing was sent`);
      return err('internal', t('core.journalFailed'), { notSent: true });
    }
    const result = await send();
    const record = result.ok
      ? safetyCopy.acknowledgeKey(profileId, idempotencyKey, result.data.animal.id)
      : result.error.notSent
        ? safetyCopy.notSent(profileId, idempotencyKey)
        : null;
    await record?.catch((error: unknown) =>
      logError(`safety copy: the outcome could not be written (${String(error)})`),
    );
    return result;
  }

  /** Creations under way, by profile and idempotency key (see `createPet`). */
  const creating = new Map<string, Promise<Result<ChannelOutput<'createPet'>>>>();

  async function keychain<T>(use: () => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await use();
    } catch (error) {
      return error instanceof KeychainUnavailableError
        ? err('keychain_unavailable', error.message)
        : err('internal', t('core.keychainFailed'));
    }
  }

  async function journalWrite<T>(write: () => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await write();
    } catch (error) {
      logError(`safety copy: ${String(error)}`);
      return err('storage_failed', journalFailure(error));
    }
  }

  // Updates install on close only when no animal is waiting to be sent: the safety copy knows how many.
  const updateSettings = readUpdateSettings(profiles.organisationUpdates.block, {
    sourceName: profiles.organisationUpdates.sourceName,
    builtFeed: options.updates?.builtFeed ?? false,
  });
  for (const problem of updateSettings.problems) logError(`updates: ${problem}`);
  const updates = new UpdatePolicy({
    clock,
    settings: updateSettings.settings,
    port: options.updates?.port ?? null,
    emit: (status) => events.emit('update', status),
  });
  const countWaiting = (): void =>
    void safetyCopy.openCount().then(
      (waiting) => updates.waitingChanged(waiting),
      (error: unknown) => logError(`updates: the safety copy could not be counted (${String(error)})`),
    );
  const stopCounting = options.updates ? safetyCopy.onChange(countWaiting) : () => {};
  if (options.updates) countWaiting();
  updates.start();

  const handlers: Handlers = {
    listPets: ({ profileId, query, view }) =>
      withClient(profileId, (c) => c.listPets(query, view === undefined ? {} : { view })),
    getPet: ({ profileId, id }) => withClient(profileId, (c) => c.getPet(id)),
    createPet: ({ profileId, animal, idempotencyKey }) => {
      // One creation per entry at a time: a window that takes over the sending (the sender was
      // closed or reloaded mid-send) may send the entry again while its first send still runs
      // here; it gets that send's answer rather than a second animal.
      const id = `${profileId}\n${idempotencyKey}`;
      const running = creating.get(id);
      if (running) return running;
      const created = withClient(profileId, (c) =>
        createKept(profileId, idempotencyKey, () => c.createPet(animal, idempotencyKey)),
      ).finally(() => creating.delete(id));
      creating.set(id, created);
      return created;
    },
    keepEntries: async ({ profileId, batch, complete, entries }) => {
      if (!profiles.get(profileId)) return err('not_found', t('core.noSuchProfile'));
      return journalWrite(async () => ok({ kept: await safetyCopy.keep(profileId, batch, entries, complete) }));
    },
    settleEntry: async (input) => {
      if (!profiles.get(input.profileId)) return err('not_found', t('core.noSuchProfile'));
      const outcome =
        input.outcome === 'acknowledged'
          ? { kind: 'acknowledged' as const, id: input.id }
          : { kind: 'discarded' as const };
      return journalWrite(async () =>
        ok({ settled: await safetyCopy.settle(input.profileId, input.localId, outcome) }),
      );
    },
    safetyCopy: async ({ profileId }) => {
      if (!profiles.get(profileId)) return err('not_found', t('core.noSuchProfile'));
      return journalWrite(async () => ok(await safetyCopy.read(profileId)));
    },
    updateStatus: async () => ok(updates.status()),
    ordersRaw: ({ profileId }) => withClient(profileId, (c) => c.ordersRaw()),
    testKey: ({ profileId }) => withClient(profileId, (c) => c.testKey()),
    listProfiles: async () => ok(profiles.list()),
    saveProfile: async (input) => {
      const before = input.id ? (profiles.get(input.id)?.baseUrl ?? null) : null;
      const saved = await profiles.save(input);
      // A key is kept for its own origin only: an address moved elsewhere leaves it behind.
      if (saved.ok) {
        const kept = await keys.keepOnlyFor(saved.data.id, saved.data.baseUrl);
        if (!kept.ok) logError(`saveProfile: the old key could not be removed (${kept.error.message})`);
        // Another address: what was known of the key no longer holds (it may be gone, too).
        if (saved.data.baseUrl !== before) {
          keyStatus.forget(saved.data.id);
          events.emit('key', await keyStatus.status(saved.data.id));
        }
      }
      return saved;
    },
    removeProfile: async ({ profileId }) => {
      const removed = await profiles.remove(profileId);
      if (removed.ok) {
        drop(profileId);
        // The key of a removed profile has no use any more; failing to delete it is harmless.
        await keys.clearKey(profileId).catch(() => undefined);
        // Staff were told its unsent animals go with it.
        await safetyCopy.forget(profileId).catch((error: unknown) => logError(`removeProfile: ${String(error)}`));
        keyStatus.forget(profileId);
      }
      return removed;
    },
    setKey: async ({ profileId, key }) => {
      const saved = await keys.setKey(profileId, key);
      if (saved.ok) keyStatus.saved(profileId);
      return saved;
    },
    clearKey: async ({ profileId }) => {
      const cleared = await keys.clearKey(profileId);
      if (cleared.ok) keyStatus.removed(profileId);
      return cleared;
    },
    hasKey: ({ profileId }) => keys.hasKey(profileId),
    keyStatus: async ({ profileId }) => {
      if (!profiles.get(profileId)) return err('not_found', t('core.noSuchProfile'));
      return ok(await keyStatus.status(profileId));
    },
    governorSnapshot: async ({ profileId }): Promise<Result<ChannelOutput<'governorSnapshot'>>> => {
      const entry = clientFor(profileId);
      if ('governor' in entry) return ok(entry.governor.snapshot());
      if (!profiles.get(profileId)) return entry;
      // A profile without an address has an idle governor: nothing learnt, nothing queued.
      let idle = idleGovernors.get(profileId);
      if (!idle) idleGovernors.set(profileId, (idle = new RateLimitGovernor({ profileId, clock })));
      return ok(idle.snapshot());
    },
    diagnostics: async () => ok({ entries: diagnostics.entries() }),
    proxyLogins: () =>
      keychain(async () => {
        const logins = await proxyLogins.list();
        const asked = [...askedForLogin].filter((proxy) => !logins.some((login) => login.proxy === proxy));
        return ok({ logins, asked });
      }),
    setProxyLogin: ({ proxy, username, password }) =>
      keychain(async () => {
        await proxyLogins.set(proxy, { username, password });
        proxies.forget(proxy);
        askedForLogin.delete(proxy);
        return ok({ saved: true as const });
      }),
    clearProxyLogin: ({ proxy }) =>
      keychain(async () => {
        const cleared = await proxyLogins.clear(proxy);
        proxies.forget(proxy);
        return ok({ cleared });
      }),
    systemLanguages: async () => ok({ languages: options.systemLanguages ? [...options.systemLanguages()] : null }),
    useLanguage: async ({ language }) => {
      await useLanguage(language);
      return ok({ language });
    },
  };

  const stopProfiles = profiles.onChange((list) => events.emit('profiles', list));

  return {
    router: createRouter(handlers, { logError, scrubber }),
    events,
    updates,
    async dispose() {
      stopProfiles();
      stopCounting();
      updates.dispose();
      for (const id of [...clients.keys()]) drop(id);
      for (const governor of idleGovernors.values()) governor.dispose();
      await proxies.close();
      idleGovernors.clear();
    },
  };
}
