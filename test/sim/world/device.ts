/**
 * One computer at the event: its disk, its keychain, its browser storage (IndexedDB,
 * localStorage, Web Locks, BroadcastChannel of the app's origin), the app's core (the real
 * `createAppCore`, with the service's `fetch`, the disk as its data folder and the loop's
 * clock) and its windows (the real `createApp`: AppStores, SharedSync over a SyncEngine, one
 * ProfileSession per profile), which talk to the core over IPC links.
 *
 * What can happen to it:
 * - the app crashes (Electron: the main process dies and its windows with it; memory gone,
 *   disk kept, the write under way torn), or the power goes (only what was fsynced stays);
 * - the browser host's process dies while its pages stay open (their calls fail until reloaded);
 * - a window is closed or reloaded (its document goes: its lock is released, its channel closed,
 *   its calls under way never answered);
 * - the site's data is cleared (IndexedDB gone under the open windows), the disk fills up.
 */
import { createAppCore, type AppCore } from '../../../electron/core/app-core';
import type { ProcessProbe } from '../../../electron/core/data-folder';
import type { SecretStore } from '../../../electron/core/keys/secret-store';
import type { AppStores } from '../../../src/app/app-stores.svelte';
import { createApp } from '../../../src/app/app-stores.svelte';
import { PROFILE_COLORS } from '../../../src/shared/records/profile';
import type { Channel, EventName } from '../../../src/shared/app-api/api';
import { buildAdoptionApi, type Transport } from '../../../src/shared/app-api/client';
import type { SafetyEntry } from '../../../src/shared/app-api/api';
import type { SharedSync } from '../../../src/sync/shared-sync';
import { BroadcastHub, MemoryStorage, SimLockManager, simWindow } from './browser';
import { Disk, type DiskFs } from './disk';
import { mountDisk } from './fs-mount';
import { DB_NAME_PREFIX as APP_DB_PREFIX } from '../../../src/storage/db';
import { BrowserStorage, DB_NAME_PREFIX } from './indexeddb';
import { Link } from './links';
import type { Owner, SimLoop } from './loop';
import type { Rng } from './rng';
import type { SimService } from './service';

/** The built-in profiles' settings: no Production or Staging address (staff make their own profile). */
const BUILT_INS = { settings: { version: 1, production: { baseUrl: null }, staging: { baseUrl: null } } };

if (APP_DB_PREFIX !== DB_NAME_PREFIX)
  throw new Error('world/indexeddb.ts must name databases as src/storage/db.ts does');

/** A promise that never settles: what a call into a dead process waits for. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** The computer's keychain (the OS's: it outlives the app), readable by the checks. */
export class SimKeychain implements SecretStore {
  readonly #secrets = new Map<string, string>();
  async get(account: string): Promise<string | null> {
    return this.#secrets.get(account) ?? null;
  }
  async set(account: string, secret: string): Promise<void> {
    this.#secrets.set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.#secrets.delete(account);
  }
  async has(account: string): Promise<boolean> {
    return this.#secrets.has(account);
  }
  holds(account: string): boolean {
    return this.#secrets.has(account);
  }
}

/** One run of the core process. */
export interface CoreRun {
  owner: Owner;
  core: AppCore;
  fs: DiskFs;
}

/** What the world saw cross the IPC links of this computer (for the checks and the ledger). */
export interface Traffic {
  /** Every entry a window asked the core to keep, by localId (its idempotency key and animal). */
  kept: Map<string, SafetyEntry>;
  /** Every line the core logged, every event and answer that left it (the key must be in none). */
  outOfCore: string[];
}

export type CoreState = 'running' | 'crashed' | 'host-down' | 'stopped';

export class SimDevice {
  readonly disk: Disk;
  readonly browser = new BrowserStorage();
  readonly keychain = new SimKeychain();
  readonly localStorage = new MemoryStorage();
  readonly locks = new SimLockManager();
  readonly hub: BroadcastHub;
  readonly dataDir: string;
  readonly windows: SimWindow[] = [];
  readonly traffic: Traffic = { kept: new Map(), outOfCore: [] };
  run: CoreRun | null = null;
  state: CoreState = 'stopped';
  /** How the app died today, by kind (for the figures). */
  readonly crashes: Record<string, number> = {};
  /** The staff profile this computer works in (null while removed). */
  profileId: string | null = null;
  /** A profile whose removal staff confirmed when the app died (done or not: the app says at the restart). */
  removing: string | null = null;
  /** Every profile id this computer ever had (their databases are its own). */
  readonly profileIds: string[] = [];
  #runs = 0;
  #windowIds = 0;

  constructor(
    readonly name: string,
    readonly profileName: string,
    private readonly loop: SimLoop,
    private readonly rng: Rng,
    private readonly service: SimService,
  ) {
    this.disk = new Disk(rng, { crashed: (kind) => this.crash(kind === 'power' ? 'power' : 'app', false) });
    this.hub = new BroadcastHub(loop, name);
    this.dataDir = `${mountDisk(name, () => this.#fs())}/data`;
  }

  /**
   * The computer's processes as the data folder's lock sees them: each run of the core is a
   * process of its own (its id: the run's number), running until it dies (the simulator's all
   * share one real process, whose id the lock would otherwise take for every one of them).
   */
  readonly #processes: ProcessProbe = {
    self: async () => ({ pid: this.#runs, startedAt: this.loop.now(), linuxStart: `${this.name}/${this.#runs}` }),
    inspect: async (pid) =>
      pid === this.#runs && this.run !== null && !this.run.owner.dead
        ? { running: true, linuxStart: `${this.name}/${pid}`, startedAt: null }
        : { running: false },
  };

  #fs(): DiskFs {
    // Calls from no running core (a dead one's last steps) never return.
    return this.run?.fs ?? this.disk.view({ name: `${this.name} (down)`, dead: true });
  }

  get alive(): boolean {
    return this.state === 'running';
  }

  liveWindows(): SimWindow[] {
    return this.windows.filter((window) => window.alive);
  }

  /**
   * Starts the core (a new run of the process on the same disk and keychain). False when it did
   * not start: with the disk full, the data folder's lock cannot be written and the app says so
   * and quits (Electron: a dialog); staff try again later. Any other refusal fails the day.
   */
  async startCore(): Promise<boolean> {
    this.#runs += 1;
    const owner: Owner = { name: `${this.name} core #${this.#runs}`, dead: false };
    const fs = this.disk.view(owner);
    const run: CoreRun = { owner, fs, core: null as unknown as AppCore };
    const before = this.state;
    this.run = run;
    this.state = 'running';
    try {
      run.core = await this.#createCore(run);
    } catch (error) {
      const code = ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code;
      if (!(code === 'ENOSPC' && this.disk.full) || owner.dead) throw error;
      owner.dead = true;
      this.run = null;
      this.state = before === 'running' ? 'stopped' : before;
      this.crashes['did not start (disk full)'] = (this.crashes['did not start (disk full)'] ?? 0) + 1;
      this.traffic.outOfCore.push(`start refused: ${(error as Error).message}`);
      return false;
    }
    run.core.events.subscribe((event, payload) => {
      if (owner.dead) return;
      if (event === 'profiles') this.ownCustom(payload);
      const text = JSON.stringify(payload);
      this.traffic.outOfCore.push(`event ${event}: ${text}`);
      for (const window of this.liveWindows()) window.event(run, event, text);
    });
    return true;
  }

  #createCore({ owner, fs }: CoreRun): Promise<AppCore> {
    return createAppCore({
      fetch: this.service.fetchFor(this.name, owner),
      dataDir: this.dataDir,
      secretStore: this.keychain,
      builtIns: BUILT_INS,
      clock: this.loop.clockFor(owner),
      journalFs: fs.asJournalFs(),
      processProbe: this.#processes,
      logError: (line) => {
        if (!owner.dead) this.traffic.outOfCore.push(`log: ${line}`);
      },
    });
  }

  /**
   * The app dies: Electron's main process with its windows ('app'), the same with the power
   * ('power': what was not fsynced may be gone), or the browser host alone ('host': its pages
   * stay open and their calls fail). `now`: the crash is a step of the day (an armed crash goes
   * off inside a write, which tears it itself).
   */
  crash(kind: 'app' | 'power' | 'host', now = true): void {
    const run = this.run;
    if (run) run.owner.dead = true;
    this.run = null;
    const kindName = `${kind === 'power' ? 'power cut' : kind === 'host' ? 'host died' : 'app crashed'}${now ? '' : ' mid-write'}`;
    this.crashes[kindName] = (this.crashes[kindName] ?? 0) + 1;
    this.disk.disarm();
    if (kind === 'power' && now) this.disk.powerCut();
    if (kind === 'host') {
      this.state = 'host-down';
      for (const window of this.liveWindows()) if (run) window.hostDied(run);
      return;
    }
    this.state = 'crashed';
    for (const window of this.liveWindows()) window.die();
  }

  /** Opens a window (the core must be running); resolves once its stores have started. */
  async openWindow(): Promise<SimWindow> {
    const window = new SimWindow(this, `${this.name}w${++this.#windowIds}`, this.loop);
    this.windows.push(window);
    await window.open();
    return window;
  }

  /** Owns every staff profile of a profile list the core gave (the built-ins' databases are nobody's). */
  ownCustom(list: unknown): void {
    for (const profile of (list as { profiles?: Array<{ id: string; kind: string }> }).profiles ?? [])
      if (profile.kind === 'custom') this.own(profile.id);
  }

  /** Whether the keychain holds a key for the profile. */
  keychainHas(profileId: string): boolean {
    return this.keychain.holds(profileId);
  }

  /** The colour of the staff profile (any one). */
  color(): (typeof PROFILE_COLORS)[number] {
    return PROFILE_COLORS[this.name.length % PROFILE_COLORS.length]!;
  }

  /** A profile id this computer owns from now on (its database is in this computer's storage). */
  own(profileId: string): void {
    if (this.profileIds.includes(profileId)) return;
    this.profileIds.push(profileId);
    this.browser.own(profileId);
  }
}

/** One window of the app on a computer. */
export class SimWindow {
  alive = true;
  app!: AppStores;
  readonly #listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  /** The link of each core run this window talked to (answers and events come back on it). */
  readonly #fromCore = new Map<CoreRun, Link>();
  readonly #toCore: Link;
  /** The core run this window was opened on (its session: a restarted core knows it no more). */
  #session: CoreRun | null = null;
  readonly #pending = new Set<{ run: CoreRun; reject: (error: unknown) => void }>();
  /** The last `connectivity` event this window received, per profile (what its store should say). */
  readonly lastConnectivity = new Map<string, boolean>();

  constructor(
    readonly device: SimDevice,
    readonly id: string,
    private readonly loop: SimLoop,
  ) {
    this.#toCore = new Link(loop, `${id} → core`);
  }

  get sync(): SharedSync {
    return this.app.sync as SharedSync;
  }

  #linkFrom(run: CoreRun): Link {
    let link = this.#fromCore.get(run);
    if (!link) {
      link = new Link(this.loop, `core → ${this.id}`);
      this.#fromCore.set(run, link);
    }
    return link;
  }

  /** The window's `window.adoption` transport: IPC to its computer's core, JSON both ways. */
  #transport(): Transport {
    const device = this.device;
    return {
      invoke: (channel: Channel | string, input: unknown) => {
        if (!this.alive) return never();
        const run = this.#session;
        // The browser host went down, or came back knowing nothing of this page: the call fails.
        if (!run || run.owner.dead || device.run !== run) return Promise.reject(new TypeError('Failed to fetch'));
        const text = JSON.stringify(input ?? {});
        if (channel === 'keepEntries') {
          for (const entry of (JSON.parse(text) as { entries: SafetyEntry[] }).entries)
            device.traffic.kept.set(entry.localId, entry);
        }
        return new Promise((resolve, reject) => {
          const pending = { run, reject };
          this.#pending.add(pending);
          this.#toCore.post(() => {
            if (run.owner.dead) return;
            void run.core.router.handle(channel, JSON.parse(text)).then((result) => {
              if (run.owner.dead) return;
              const answer = JSON.stringify(result);
              device.traffic.outOfCore.push(`${channel}: ${answer}`);
              // The computer's own profiles (their databases are its own) as soon as the world sees them.
              if (channel === 'saveProfile' && result.ok) device.own((result.data as { id: string }).id);
              if (channel === 'listProfiles' && result.ok) device.ownCustom(result.data);
              this.#linkFrom(run).post(() => {
                this.#pending.delete(pending);
                if (this.alive) resolve(JSON.parse(answer));
              });
            });
          });
        });
      },
      subscribe: (event: EventName, listener: (payload: unknown) => void) => {
        let set = this.#listeners.get(event);
        if (!set) this.#listeners.set(event, (set = new Set()));
        set.add(listener);
        return () => void set.delete(listener);
      },
    };
  }

  /** The browser host died under this page: its requests under way fail (the connection is reset). */
  hostDied(run: CoreRun): void {
    for (const pending of [...this.#pending]) {
      if (pending.run !== run) continue;
      this.#pending.delete(pending);
      pending.reject(new TypeError('Failed to fetch'));
    }
  }

  /** An event of the core reaches this window (in order with the core's answers). */
  event(run: CoreRun, event: EventName, text: string): void {
    this.#linkFrom(run).post(() => {
      if (!this.alive) return;
      if (event === 'connectivity') {
        const payload = JSON.parse(text) as { profileId: string; online: boolean };
        this.lastConnectivity.set(payload.profileId, payload.online);
      }
      for (const listener of [...(this.#listeners.get(event) ?? [])]) listener(JSON.parse(text));
    });
  }

  async open(): Promise<void> {
    this.#session = this.device.run;
    const api = buildAdoptionApi(this.#transport(), 'electron');
    BroadcastHub.opening = this.device.hub;
    try {
      this.app = createApp(api, simWindow(this.device.localStorage, this.device.locks));
      await this.app.start();
    } finally {
      BroadcastHub.opening = null;
    }
    // App.svelte shows the active profile's session.
    const active = this.app.profiles.activeId;
    if (active && this.app.profiles.active?.baseUrl) this.app.session(active);
  }

  /** The window's document goes (closed, reloaded, or its app crashed). */
  die(): void {
    if (!this.alive) return;
    this.alive = false;
    this.#toCore.close();
    for (const link of this.#fromCore.values()) link.close();
    // A gone document runs nothing more: its timers, queries, lock and channel go with it.
    this.app?.destroy();
  }
}
