/**
 * The world of one simulated day: the loop (clock and chance), the service, and the computers
 * with their windows. Everything here is the world around the app; the app is the real code.
 */
import type { Scheduler } from 'fast-check';
import type { Plan } from '../../service/plans';
import { closeProfileDb } from '../../../src/storage/db';
import { SimLoop } from './loop';
import { Rng } from './rng';
import { SimDevice, type SimWindow } from './device';
import { forgetStorages } from './indexeddb';
import { unmountAll } from './fs-mount';
import { SERVICE_URL, SimService } from './service';

export interface WorldPlan {
  /** Seeds the world's chance (latencies, ids, torn bytes, jitter). */
  seed: number;
  /** Windows open on each computer at the start (1 to 3 each; 1 to 4 computers). */
  windows: number[];
  honoursKeys: boolean;
  gateway: boolean;
  plan: Plan;
}

/** How long the world waits for one step of staff (a window opening, an add) before giving up on it. */
export const STEP_LIMIT_MS = 10 * 60_000;

export class World {
  readonly loop: SimLoop;
  readonly rng: Rng;
  readonly service: SimService;
  readonly devices: SimDevice[] = [];
  readonly apiKey: string;
  /** What the app wrote to the console while the day ran. */
  readonly console: string[] = [];
  #console: Partial<Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...args: unknown[]) => void>> = {};
  /** The process's `exit` listeners before the day, and how many it allowed. */
  #exitListeners: { before: Set<unknown>; max: number } | null = null;

  constructor(
    readonly plan: WorldPlan,
    scheduler: Scheduler,
  ) {
    this.rng = new Rng(plan.seed);
    this.loop = new SimLoop(this.rng.next, scheduler);
    // A key that looks like a real one: long, with the characters keys are made of.
    this.apiKey = `sk_live_${this.rng.uuid().replace(/-/g, '')}${this.rng.uuid().slice(0, 8)}`;
    this.service = new SimService(this.loop, this.rng, {
      apiKey: this.apiKey,
      honoursKeys: plan.honoursKeys,
      gateway: plan.gateway,
      plan: plan.plan,
    });
  }

  /** Makes the process's clock and chance the world's; call `dispose` at the end. */
  install(): void {
    this.loop.install(() => this.rng.uuid());
    // Each core's data-folder lock lets go of the folder on its process's `exit`
    // (data-folder/folder-lock.ts): the day's cores are processes of their own, killed without
    // one (their handlers go at the end of the day), and a day may start more than ten.
    this.#exitListeners = { before: new Set(process.listeners('exit')), max: process.getMaxListeners() };
    process.setMaxListeners(0);
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      this.#console[level] = console[level];
      console[level] = (...args: unknown[]) => void this.console.push(`${level}: ${args.map(String).join(' ')}`);
    }
  }

  /**
   * The day is over: every process ends, the app's per-window registry of open databases forgets
   * this day's (db.ts keeps one instance per profile id, and tomorrow's computers reuse the ids),
   * and Dexie's live-query caches of them are let go (Dexie drops an unused one 3 s later).
   */
  async dispose(): Promise<void> {
    for (const device of this.devices) {
      if (device.run) device.run.owner.dead = true;
      for (const window of device.liveWindows()) window.die();
      for (const profileId of device.profileIds) closeProfileDb(profileId);
    }
    try {
      await this.loop.runUntil(this.loop.mono + 5_000);
    } finally {
      this.loop.uninstall();
    }
    for (const [level, original] of Object.entries(this.#console))
      (console as unknown as Record<string, unknown>)[level] = original;
    forgetStorages();
    unmountAll();
    if (this.#exitListeners) {
      const { before, max } = this.#exitListeners;
      for (const listener of process.listeners('exit'))
        if (!before.has(listener)) process.off('exit', listener as (code: number) => void);
      process.setMaxListeners(max);
      this.#exitListeners = null;
    }
  }

  /** Runs the world until `promise` settles; null when it did not within `limitMs` of virtual time. */
  async drive<T>(promise: Promise<T>, limitMs = STEP_LIMIT_MS): Promise<{ value: T } | null> {
    return this.loop.until(promise, limitMs);
  }

  /** The first morning: each computer starts the app, makes its profile with the shared key, opens its windows. */
  async start(): Promise<void> {
    this.plan.windows.forEach((_, index) => {
      this.devices.push(new SimDevice(`d${index + 1}`, `Park laptop ${index + 1}`, this.loop, this.rng, this.service));
    });
    for (const [index, device] of this.devices.entries()) {
      if (!(await this.mustValue(device.startCore(), `${device.name}: the core starts`)))
        throw new Error(`${device.name}: the core did not start`);
      const first = await this.mustValue(device.openWindow(), `${device.name}: a window opens`);
      if (!(await this.makeProfile(first))) throw new Error(`${device.name}: the profile was not made`);
      for (let i = 1; i < (this.plan.windows[index] ?? 1); i += 1)
        await this.must(device.openWindow(), `${device.name}: a window opens`);
    }
    await this.loop.settle();
  }

  /**
   * Staff make the computer's profile in Keys and profiles (or pick it up, if the app made it
   * before it died) and save the shared key. Null when the app did not answer (it died meanwhile).
   */
  async makeProfile(window: SimWindow): Promise<string | null> {
    const device = window.device;
    const app = window.app;
    let id = app.profiles.profiles.find((p) => p.kind === 'custom' && p.name === device.profileName)?.id ?? null;
    if (!id) {
      const added = await this.drive(
        app.profiles.add({ name: device.profileName, baseUrl: SERVICE_URL, color: device.color() }),
      );
      if (!added) return null;
      if (added.value !== null) throw new Error(`${device.name}: the profile could not be made: ${added.value}`);
      id = app.profiles.added?.id ?? null;
      if (!id) throw new Error(`${device.name}: no profile was added`);
    } else app.profiles.select(id);
    device.own(id);
    device.profileId = id;
    // App.svelte shows the profile just made.
    app.session(id);
    await this.saveKey(window);
    return id;
  }

  /** Staff save the shared key for the computer's profile (when the keychain has none). */
  async saveKey(window: SimWindow): Promise<void> {
    const device = window.device;
    if (!device.profileId || device.keychainHas(device.profileId)) return;
    await this.drive(window.app.keys.save(device.profileId, this.apiKey));
  }

  async must(promise: Promise<unknown>, what: string): Promise<void> {
    await this.mustValue(promise, what);
  }

  async mustValue<T>(promise: Promise<T>, what: string): Promise<T> {
    const done = await this.drive(promise);
    if (!done) throw new Error(`${what}: still waiting after ${STEP_LIMIT_MS / 60_000} minutes`);
    return done.value;
  }
}
