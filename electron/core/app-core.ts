/**
 * The app core, wired once for both transports: each subsystem serves its own channels (profiles,
 * keys, service, safety copy, updates, language) and this file only wires them to one another and
 * merges their handlers into the router, which proves every channel of the contract served exactly
 * once. Events (governor snapshots, connectivity, keys, profile changes, updates) go out through
 * `events`, scrubbed of every key.
 */
import { type Clock, systemClock } from '../../src/shared/basics/clock';
import { createEventBus, createRouter, type EventBus, type Router, serveChannels } from './api';
import { type DataFolder, openDataFolder, type ProcessProbe } from './data-folder';
import { DIRECT, type ProxyResolver, ProxyRouter } from './http';
import { keyChannels, ProxyLogins, Scrubber, type SecretStore } from './keys';
import { languageChannels } from './language-channels';
import { type BuiltInSource, profileChannels, ProfileRegistry } from './profiles';
import { type JournalFs, type RecoveredEntry, type RecoverReport, SafetyCopy, safetyCopyChannels } from './safety-copy';
import { ProfileClients, serviceChannels, type ServiceClientOptions } from './service';
import { type UpdatePolicy, type UpdaterPort, type UpdateTrust, updateChannels } from './updates';

export interface AppCoreOptions {
  /** Node's `fetch`, in the app (electron/main/index.ts says why) and in the browser host. */
  fetch: typeof fetch;
  /**
   * The app's data folder (profiles.json and the safety copy live there). The core makes it
   * private and holds it for this process until disposed (data-folder/open-data-folder.ts): a
   * second core on it, in this process or another, is refused.
   */
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
  /** How the data folder's lock tells whether its holder runs (the simulator's processes share one real one). */
  processProbe?: ProcessProbe;
  /** HTTP limits of every service client (tests shorten the 15 s headers / 30 s total timeouts). */
  http?: ServiceClientOptions['http'];
  /** The rate the governors assume while a service tells none (tests of other matters raise it). */
  assumedRate?: number;
  /** How long the core holds a creation it gave up waiting on (`SEND_SETTLES_MS`, a minute; e2e shortens it). */
  sendSettlesMs?: number;
  /**
   * The app's own updater (electron/main/updates.ts, in the installed app only) and whom an update
   * must come from (core/updates/update-trust.ts). Without it updates are off. `development`: not
   * the installed app (tests), where an update address may be plain http on this computer.
   */
  updates?: { port: UpdaterPort; trust: UpdateTrust; development?: boolean };
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
  /**
   * Keeps an earlier version's queue in a profile's safety copy, each entry once and flagged as
   * recovered (the browser host's recovery, electron/host/earlier-origin.ts); null when the
   * profile does not exist. On disk when it resolves; throws when the journal cannot be written.
   */
  recoverEntries(profileId: string, entries: readonly RecoveredEntry[]): Promise<RecoverReport | null>;
  dispose(): Promise<void>;
}

export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const clock = options.clock ?? systemClock;
  const language = await languageChannels(options.systemLanguages);
  // The one scrubber: it learns every key the core reads or is given, and everything that
  // leaves the core (router answers, events, log lines) goes through it.
  const scrubber = new Scrubber();
  const logError = (message: string): void =>
    (options.logError ?? ((line: string) => console.error(line)))(scrubber.text(message));
  // First of all: one process per data folder (the safety copy is compacted from memory).
  const dataFolder = await openDataFolder(options.dataDir, {
    logError,
    ...(options.processProbe ? { probe: options.processProbe } : {}),
  });
  try {
    return await wireCore(options, { clock, scrubber, logError, dataFolder, language });
  } catch (error) {
    await dataFolder.close();
    throw error;
  }
}

interface Wiring {
  clock: Clock;
  scrubber: Scrubber;
  logError: (message: string) => void;
  dataFolder: DataFolder;
  language: Awaited<ReturnType<typeof languageChannels>>;
}

async function wireCore(
  options: AppCoreOptions,
  { clock, scrubber, logError, dataFolder, language }: Wiring,
): Promise<AppCore> {
  const bus = createEventBus((error) => logError(`event listener failed: ${String(error)}`));
  const events: EventBus = { ...bus, emit: (event, payload) => bus.emit(event, scrubber.value(payload)) };
  const profiles = await ProfileRegistry.open({
    dataDir: options.dataDir,
    builtIns: options.builtIns,
    ...(options.localDemoUrl ? { localDemoUrl: options.localDemoUrl } : {}),
  });
  const profileExists = (id: string): boolean => profiles.get(id) !== null;
  const proxyLogins = new ProxyLogins(options.secretStore, scrubber);
  const proxies = new ProxyRouter(
    options.proxy ?? { resolve: async () => [DIRECT] },
    (proxy) => proxyLogins.get(proxy),
    options.fetch,
  );
  const keys = keyChannels({
    secretStore: options.secretStore,
    scrubber,
    clock,
    proxyLogins,
    proxies,
    profileExists,
    logError,
    addressOf: (id) => profiles.get(id)?.baseUrl ?? null,
    emit: (status) => events.emit('key', status),
  });
  const safetyCopy = new SafetyCopy({
    dataDir: options.dataDir,
    clock,
    ...(options.journalFs ? { fs: options.journalFs } : {}),
    logError,
  });
  const safety = safetyCopyChannels(safetyCopy, { profileExists, logError });
  await safety.finishRemovals(profiles.removedIds);
  const clients = new ProfileClients({
    fetch: options.fetch,
    clock,
    scrubber,
    getKey: keys.getKey,
    watch: keys.watch,
    emit: events.emit,
    profileOf: (id) => profiles.get(id),
    http: { ...options.http, route: (url) => proxies.route(url) },
    ...(options.assumedRate ? { assumedRate: options.assumedRate } : {}),
  });
  const updates = updateChannels({
    clock,
    organisation: profiles.organisationUpdates,
    updates: options.updates,
    waiting: safetyCopy,
    logError,
    emit: (status) => events.emit('update', status),
  });
  const service = serviceChannels(clients, safety.sendKept, clock, options.sendSettlesMs);
  const handlers = serveChannels(
    service.handlers,
    safety.handlers,
    keys.handlers,
    profileChannels(profiles, {
      saved: keys.profileSaved,
      removed: async (profileId) => {
        clients.drop(profileId);
        await keys.profileRemoved(profileId);
        await safety.profileRemoved(profileId);
      },
    }),
    updates.handlers,
    language,
  );
  const stopProfiles = profiles.onChange((list) => events.emit('profiles', list));

  return {
    router: createRouter(handlers, { logError, scrubber }),
    events,
    updates: updates.policy,
    recoverEntries: safety.recoverEntries,
    async dispose() {
      stopProfiles();
      updates.dispose();
      service.dispose();
      clients.dispose();
      await proxies.close();
      await dataFolder.close();
    },
  };
}
