/**
 * Creates the stores once per app and hands them to components through Svelte context.
 * Everything that belongs to a profile lives in its ProfileSession (profile-session.svelte.ts),
 * one per profile, kept while the app runs. Facts shared by every screen have
 * one store each, read by all: connectivity (ConnectivityStore), the key (KeysStore), the
 * queue and its progress (QueueStore); what follows from a change of one is wired here.
 */
import { DiagnosticsStore, GovernorStore } from '../diagnostics';
import { LanguageStore, t } from '../language';
import { ProxyLoginsStore } from '../profiles';
import type { AdoptionApi } from '../shared/app-api/client';
import { errorMessage } from '../shared/basics/errors';
import {
  type AppContext,
  ClockStore,
  ConnectivityStore,
  KeysStore,
  NavigationStore,
  ProfileListStore,
  UpdatesStore,
} from '../shell';
import {
  closeProfileDb,
  deleteProfileDb,
  openMemoryProfileDb,
  openProfileDb,
  profileDbExists,
  profileDbHere,
} from '../storage';
import { SharedSync, SYNC_CHANNEL, type SyncDriver, SyncEngine } from '../sync';
import { StorageHealthStore } from '../two-copies';
import { ProfileSession } from './profile-session.svelte';

export { ProfileSession };

export class AppStores implements AppContext {
  readonly clock = new ClockStore();
  /** The language the window shows (staff's choice, else the system's). */
  readonly language: LanguageStore;
  readonly navigation: NavigationStore;
  readonly profiles: ProfileListStore;
  readonly connectivity: ConnectivityStore;
  readonly governor: GovernorStore;
  readonly keys: KeysStore;
  readonly diagnostics: DiagnosticsStore;
  readonly proxyLogins: ProxyLoginsStore;
  /** Where the app's own updates stand (an update ready to install is said under the title bar). */
  readonly updates: UpdatesStore;
  /** What this window knows of the browser's storage (Diagnostics). */
  readonly storage = new StorageHealthStore();
  /** Counts sessions replaced (a profile's storage moved to memory): App reads its session again. */
  #replaced = $state(0);
  // A cache of sessions, not UI state: nothing renders from the map itself.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #sessions = new Map<string, ProfileSession>();
  #offConnectivity: (() => void) | null = null;
  #offKeys: (() => void) | null = null;
  #offProfiles: (() => void) | null = null;
  #offLanguage: (() => void) | null = null;
  #started: Promise<void> | null = null;

  readonly #win: Window;

  constructor(
    readonly api: AdoptionApi,
    readonly sync: SyncDriver,
    win: Window = window,
  ) {
    this.#win = win;
    this.navigation = new NavigationStore(win);
    this.language = new LanguageStore(
      api,
      win.localStorage,
      () => win.navigator?.languages ?? [],
      win.document?.documentElement ?? null,
    );
    this.profiles = new ProfileListStore(api, win.localStorage);
    this.connectivity = new ConnectivityStore(api);
    this.governor = new GovernorStore(api, this.clock);
    // A key saved in this window lets its queue go on (every window hears the change; one resumes).
    this.keys = new KeysStore(api, (profileId) => {
      this.sync.resumeAfterKey(profileId);
      void this.#sessions.get(profileId)?.list.refreshIfStale();
    });
    this.diagnostics = new DiagnosticsStore(api);
    this.updates = new UpdatesStore(api);
    // A proxy login saved: every profile's queue goes on now, and lists that failed ask again.
    this.proxyLogins = new ProxyLoginsStore(api, () => {
      for (const [profileId, session] of this.#sessions) {
        this.sync.resumeAfterKey(profileId);
        void session.list.refreshIfStale();
      }
    });
  }

  /**
   * Starts the stores, once (main.ts starts them before the screens are loaded, App again on
   * mount). The profile list comes through the app API; meanwhile the profile remembered from the
   * last run is assumed when its database is on this computer, and its session opened, so its
   * saved data shows without waiting for the list. Should the list not have that profile, the
   * list's pick is shown instead and the assumed session is dropped.
   */
  start(): Promise<void> {
    return (this.#started ??= this.#start());
  }

  async #start(): Promise<void> {
    // The core's words the window keeps are read again in a newly shown language.
    this.#offLanguage ??= this.language.onChange(() => void this.updates.refresh());
    void this.language.start();
    this.clock.start();
    // The browser is asked to keep the site's data (Diagnostics says whether it does).
    void this.storage.requestPersistence(this.#win.navigator?.storage);
    this.connectivity.start();
    this.keys.start();
    this.governor.start();
    void this.updates.start();
    // The service answers again: the wait before the next try may be cut short (once; see
    // SyncEngine.retryEarly), and a list showing saved rows asks again.
    this.#offConnectivity ??= this.connectivity.onBack((profileId) => {
      this.sync.retryEarly?.(profileId);
      void this.#sessions.get(profileId)?.list.refreshIfStale();
    });
    // A key saved (in any window): a list that failed for want of it asks again.
    this.#offKeys ??= this.keys.onChange((profileId, state) => {
      if (state === 'saved') void this.#sessions.get(profileId)?.list.refreshIfStale();
    });
    // A profile removed (here or in another window): its queue and session are let go.
    this.#offProfiles ??= this.api.on('profiles', ({ profiles }) => {
      for (const profileId of this.#sessions.keys()) {
        if (!profiles.some((profile) => profile.id === profileId)) this.#forget(profileId);
      }
    });
    const remembered = this.profiles.remembered();
    const listed = this.profiles.load();
    const assumed = remembered ? this.#assume(remembered) : Promise.resolve(false);
    await listed;
    if (remembered && (await assumed) && !this.profiles.profiles.some((p) => p.id === remembered)) {
      this.#drop(remembered);
    }
    this.sync.start?.();
  }

  /** Assumes the remembered profile and opens its session, when its database exists; true if so. */
  async #assume(profileId: string): Promise<boolean> {
    const exists = await profileDbExists(profileId).catch(() => false);
    if (!exists || !this.profiles.assume(profileId)) return false;
    this.session(profileId);
    return true;
  }

  /** Stops and forgets a session and closes its database (an assumed profile the list lacks). */
  #drop(profileId: string): void {
    const session = this.#sessions.get(profileId);
    if (!session) return;
    session.stop();
    this.#sessions.delete(profileId);
    closeProfileDb(profileId);
  }

  /**
   * Removes one of the staff's own profiles: the core forgets it (and never gives its id to
   * another profile), then its queue stops and its database, with any unsent animals, is
   * deleted from this computer. Returns a problem message, or null.
   */
  async removeProfile(profileId: string): Promise<string | null> {
    const problem = await this.profiles.remove(profileId);
    if (problem) return problem;
    this.#forget(profileId);
    try {
      await deleteProfileDb(profileId);
    } catch (error) {
      return t('app.profileDataNotDeleted', { reason: errorMessage(error) });
    }
    return null;
  }

  #forget(profileId: string): void {
    this.sync.forget?.(profileId);
    this.#drop(profileId);
  }

  /** The stores of one profile, created on first use and kept (queues of every profile keep syncing). */
  session(profileId: string): ProfileSession {
    void this.#replaced; // read, so that App takes the new session when one is replaced
    let session = this.#sessions.get(profileId);
    if (!session) {
      session = new ProfileSession(this.api, profileId, this.sync, {
        health: this.storage,
        unusable: (reason) => void this.#inMemory(profileId, reason),
      });
      session.start();
      this.#sessions.set(profileId, session);
    }
    return session;
  }

  /**
   * The browser cannot open a profile's database: its session is replaced by one over a database
   * in this window's memory, which the safety copy fills (TwoCopies); the sync engine sends
   * from it as from any other.
   */
  async #inMemory(profileId: string, reason: string): Promise<void> {
    const session = this.#sessions.get(profileId);
    if (!session) return;
    session.stop();
    this.#sessions.delete(profileId);
    await openMemoryProfileDb(profileId, reason);
    this.#replaced += 1;
    this.session(profileId);
  }

  destroy(): void {
    this.#started = null;
    for (const session of this.#sessions.values()) session.stop();
    this.#sessions.clear();
    this.sync.stop?.();
    this.#offConnectivity?.();
    this.#offConnectivity = null;
    this.#offKeys?.();
    this.#offKeys = null;
    this.#offProfiles?.();
    this.#offProfiles = null;
    this.#offLanguage?.();
    this.#offLanguage = null;
    this.clock.stop();
    this.navigation.destroy();
    this.profiles.destroy();
    this.connectivity.destroy();
    this.keys.destroy();
    this.governor.destroy();
    this.updates.destroy();
  }
}

/**
 * The app of this window: its stores and its sync engine, which drains every profile's
 * outbox while this window holds the app's sync lock (see src/sync/shared-sync.ts).
 */
export function createApp(api: AdoptionApi, win: Window = window): AppStores {
  let app: AppStores | null = null;
  const profileIds = () => app?.profiles.profiles.map((profile) => profile.id) ?? [];
  const engine = new SyncEngine({
    api,
    db: openProfileDb,
    hasDb: profileDbHere,
    profileIds,
    serviceUrl: (id) => app?.profiles.profiles.find((profile) => profile.id === id)?.baseUrl ?? null,
  });
  const sync = new SharedSync({
    engine,
    profileIds,
    locks: win.navigator.locks ?? null,
    openChannel: () => (typeof BroadcastChannel === 'function' ? new BroadcastChannel(SYNC_CHANNEL) : null),
    warn: (message) => console.warn(message),
  });
  app = new AppStores(api, sync, win);
  return app;
}
