/**
 * One event day: the world (world/), what staff do in it and what befalls it (the commands of
 * commands.ts call these steps), and after every step the checks of checks.ts against what
 * staff were told (ledger.ts). The end of the day heals everything, lets the app work for as
 * long as it needs (staff answering its questions as they come) and checks that nothing waits.
 */
import { createHash } from 'node:crypto';
import type { Scheduler } from 'fast-check';
import type { NewAnimal } from '../../../src/shared/records/animal';
import { ImportStore } from '../../../src/toolkit/import.svelte';
import { PLANS } from '../../service/plans';
import type { SimDevice, SimWindow } from '../world/device';
import type { ServiceMood } from '../world/service';
import { World } from '../world/world';
import { type Finding, checkAfterStep, checkEndOfDay, DayFailed } from './checks';
import { creationsByKey, Ledger } from './ledger';

export interface DaySetup {
  /** Seeds the world's chance. */
  seed: number;
  /** Windows open on each computer in the morning (one to three each, one to four computers). */
  windows: number[];
  honoursKeys: boolean;
  gateway: boolean;
  plan: 'free' | 'pro';
}

/** How long the end of the day lets the app work, at most, once everything is up. */
export const DRAIN_LIMIT_MS = 4 * 60 * 60_000;
/** How often staff look at the sync panel at the end of the day. */
const LOOK_EVERY_MS = 5 * 60_000;

export interface DayFigures {
  /** What befell the day, by kind. */
  counts: Record<string, number>;
  /** A digest of everything that happened (the day's log, the service's creations, what staff were told): equal digests, equal days. */
  digest: string;
  animals: number;
  lost: number;
  twice: number;
  untrue: number;
  steps: number;
  virtualMs: number;
  tasks: number;
  requests: number;
  checksAnswered: number;
  staffDuplicates: number;
}

export class Day {
  readonly world: World;
  readonly ledger = new Ledger();
  /** What happened, in order (the report of a failing day ends with it). */
  readonly log: string[] = [];
  steps = 0;
  checksAnswered = 0;
  /** What befell the day, by kind (the figures say how often each fault was tried). */
  readonly counts: Record<string, number> = {};

  count(kind: string): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }

  constructor(
    readonly setup: DaySetup,
    scheduler: Scheduler,
    readonly options: { checkEveryStep: boolean } = { checkEveryStep: true },
  ) {
    this.world = new World(
      {
        seed: setup.seed,
        windows: setup.windows,
        honoursKeys: setup.honoursKeys,
        gateway: setup.gateway,
        plan: PLANS[setup.plan],
      },
      scheduler,
    );
  }

  get loop() {
    return this.world.loop;
  }

  get devices(): SimDevice[] {
    return this.world.devices;
  }

  note(text: string): void {
    this.log.push(`${(this.loop.mono / 1000).toFixed(1)}s ${text}`);
  }

  async start(): Promise<void> {
    this.world.service.trace = (line) => this.note(line);
    this.world.install();
    this.note(
      `morning: ${this.setup.windows.length} computer(s) with ${this.setup.windows.join('+')} window(s); the service ` +
        `${this.setup.honoursKeys ? 'honours' : 'ignores'} Idempotency-Key${this.setup.gateway ? ', behind a gateway' : ''}, ${this.setup.plan} plan`,
    );
    await this.world.start();
  }

  dispose(): Promise<void> {
    return this.world.dispose();
  }

  device(index: number): SimDevice {
    return this.devices[index % this.devices.length]!;
  }

  /** After a step: what App.svelte does (show the active profile's session), settle, check. */
  async afterStep(): Promise<void> {
    this.steps += 1;
    this.render();
    await this.loop.settle();
    if (this.options.checkEveryStep) await this.check(checkAfterStep);
  }

  async check(checker: (day: Day) => Promise<Finding[]>): Promise<void> {
    const findings = await checker(this);
    if (findings.length > 0) throw new DayFailed(findings, this);
  }

  /** Every live window shows its active profile, as App.svelte does when the active profile changes. */
  render(): void {
    for (const device of this.devices)
      for (const window of device.liveWindows()) {
        const active = window.app.profiles.activeId;
        if (active && window.app.profiles.active?.baseUrl) window.app.session(active);
      }
  }

  /** Staff start the app again if it is not running (they want to work), and open a window if none is. */
  async ensureRunning(device: SimDevice): Promise<boolean> {
    if (device.state === 'crashed' || device.state === 'stopped') {
      this.note(`${device.name}: staff start the app again`);
      if (!(await this.started(device))) return false;
    } else if (device.state === 'host-down') {
      this.note(`${device.name}: staff start the host again and reload its pages`);
      if (!(await this.started(device))) return false;
      for (const window of device.liveWindows()) {
        window.die();
        if (!(await this.world.drive(device.openWindow()))) return false;
      }
    }
    if (device.liveWindows().length === 0 && !(await this.world.drive(device.openWindow()))) return false;
    const window = device.liveWindows()[0];
    // A removal staff confirmed before the app died took effect if the profile is gone now.
    if (window && device.removing !== null && device.alive) {
      const removing = device.removing;
      device.removing = null;
      if (!window.app.profiles.profiles.some((p) => p.id === removing)) {
        this.note(`${device.name}: the profile staff removed is gone`);
        this.ledger.removeProfile(removing);
        if (device.profileId === removing) device.profileId = null;
      }
    }
    // The profile was being removed or made when the app died: staff make it (again).
    if (window && device.alive && !device.profileId) await this.world.makeProfile(window);
    if (window && device.alive) await this.world.saveKey(window);
    this.render();
    return device.alive && device.profileId !== null;
  }

  /** Starts the device's app; false when it did not start (yet, or at all: the app says why). */
  async started(device: SimDevice): Promise<boolean> {
    const done = await this.world.drive(device.startCore());
    if (done && !done.value) this.note(`${device.name}: the app does not start (the disk is full)`);
    return done?.value === true;
  }

  windowOf(device: SimDevice, index: number): SimWindow | null {
    const live = device.liveWindows();
    return live.length === 0 ? null : live[index % live.length]!;
  }

  /** Staff add one animal with the Add form (answering its duplicate question with "add anyway" or not). */
  async add(deviceIndex: number, windowIndex: number, animal: NewAnimal, anyway: boolean): Promise<void> {
    const device = this.device(deviceIndex);
    if (!(await this.ensureRunning(device))) return;
    const window = this.windowOf(device, windowIndex);
    const profileId = device.profileId;
    if (!window || !profileId) return;
    const form = window.app.session(profileId).addForm;
    if (form.submitting) {
      this.note(`${window.id}: the form is still saving, ${animal.name} waits`);
      return;
    }
    form.name = animal.name;
    form.categoryId = animal.categoryId;
    form.status = animal.status ?? '';
    const submit = async (): Promise<boolean> => {
      if (await form.submit()) return true;
      if (form.duplicate === null || !anyway) return false;
      this.note(`${window.id}: "${form.duplicate}" — staff add it anyway`);
      return form.submit();
    };
    this.note(`${window.id}: staff add ${animal.name} (category ${animal.categoryId})`);
    const pending = submit().then((saved) => {
      const localId = form.added?.localId;
      if (!saved || !localId || !window.alive) return;
      this.tell(device, profileId, localId, 'form');
    });
    // Staff wait for the form's answer a little; it may come later (or never, if the app dies).
    await this.loop.until(pending, 30_000);
  }

  /** Staff import a spreadsheet of animals (possible duplicates ticked too). */
  async importRows(deviceIndex: number, windowIndex: number, animals: NewAnimal[]): Promise<void> {
    const device = this.device(deviceIndex);
    if (!(await this.ensureRunning(device))) return;
    const window = this.windowOf(device, windowIndex);
    const profileId = device.profileId;
    if (!window || !profileId) return;
    const session = window.app.session(profileId);
    let localIds: string[] = [];
    // As ImportScreen.svelte makes it, with the ids of what was queued kept for the ledger.
    const store = new ImportStore(
      session.db,
      () => session.categories.labels,
      async (rows) => {
        const saved = await session.outbox.enqueueMany(rows);
        if (saved.ok) localIds = saved.localIds;
        return saved;
      },
    );
    const csv = ['name,category,status', ...animals.map((a) => `${a.name},${a.categoryId},${a.status ?? ''}`)].join(
      '\n',
    );
    this.note(`${window.id}: staff import ${animals.length} animals`);
    const pending = (async () => {
      await store.choose(new File([csv], 'event.csv', { type: 'text/csv' }));
      if (store.state !== 'preview') return;
      store.includeDuplicates = true;
      await store.confirm();
      if ((store.state as string) !== 'done' || !window.alive) return;
      for (const localId of localIds) this.tell(device, profileId, localId, 'import');
    })();
    await this.loop.until(pending, 60_000);
  }

  tell(device: SimDevice, profileId: string, localId: string, how: 'form' | 'import'): void {
    const kept = device.traffic.kept.get(localId);
    if (!kept) throw new Error(`${device.name}: ${localId} was said saved but never reached the safety copy`);
    this.ledger.tell({
      localId,
      idempotencyKey: kept.idempotencyKey,
      name: kept.animal.name,
      categoryId: kept.animal.categoryId,
      computer: device.name,
      profileId,
      at: this.loop.mono,
      how,
    });
  }

  async wait(ms: number): Promise<void> {
    await this.loop.advance(ms);
  }

  mood(mood: ServiceMood): void {
    this.note(`the service: ${JSON.stringify(mood)}`);
    this.count(`service ${mood.kind}`);
    this.world.service.mood = mood;
  }

  async openWindow(deviceIndex: number): Promise<void> {
    const device = this.device(deviceIndex);
    if (!(await this.ensureRunning(device))) return;
    if (device.liveWindows().length >= 3) return;
    this.note(`${device.name}: staff open another window`);
    await this.world.drive(device.openWindow());
  }

  closeWindow(deviceIndex: number, windowIndex: number): void {
    const device = this.device(deviceIndex);
    const window = this.windowOf(device, windowIndex);
    if (!window) return;
    this.note(`${window.id}: closed${window.sync.leading ? ' (it was sending)' : ''}`);
    this.count(window.sync.leading ? 'sending window closed' : 'window closed');
    window.die();
  }

  async reloadWindow(deviceIndex: number, windowIndex: number): Promise<void> {
    const device = this.device(deviceIndex);
    const window = this.windowOf(device, windowIndex);
    if (!window || !device.alive) return;
    this.note(`${window.id}: reloaded${window.sync.leading ? ' (it was sending)' : ''}`);
    this.count(window.sync.leading ? 'sending window reloaded' : 'window reloaded');
    window.die();
    await this.world.drive(device.openWindow());
  }

  /** The app dies now; staff start it again after `downMs` with `windows` windows. */
  async crash(deviceIndex: number, kind: 'app' | 'power' | 'host', downMs: number, windows: number): Promise<void> {
    const device = this.device(deviceIndex);
    if (!device.alive) return;
    this.note(
      `${device.name}: ${kind === 'power' ? 'the power goes' : kind === 'host' ? 'the browser host dies' : 'the app crashes'}`,
    );
    device.crash(kind);
    await this.loop.advance(downMs);
    if (!(await this.ensureRunning(device))) return;
    for (let i = device.liveWindows().length; i < windows; i += 1) await this.world.drive(device.openWindow());
  }

  armCrash(deviceIndex: number, afterWrites: number, kind: 'kill' | 'power'): void {
    const device = this.device(deviceIndex);
    if (!device.alive) return;
    this.note(`${device.name}: the app will die during its ${afterWrites}th disk write from now (${kind})`);
    this.count('crash armed');
    device.disk.armCrash(afterWrites, kind);
  }

  clearSite(deviceIndex: number): void {
    const device = this.device(deviceIndex);
    this.note(`${device.name}: the site's data is cleared (IndexedDB gone under the windows)`);
    this.count('site data cleared');
    device.browser.clearSiteData();
  }

  diskFull(deviceIndex: number, full: boolean): void {
    const device = this.device(deviceIndex);
    this.note(`${device.name}: the disk is ${full ? 'full' : 'freed'}`);
    if (full) this.count('disk full');
    device.disk.full = full;
  }

  jump(ms: number): void {
    this.note(`the computers' clocks jump ${ms > 0 ? '+' : ''}${Math.round(ms / 1000)} s`);
    this.count(ms < 0 ? 'clock set back' : 'clock set forward');
    this.loop.jump(ms);
  }

  /** Staff remove the profile (warned of its unsent animals) and make it again with the same key. */
  async remakeProfile(deviceIndex: number): Promise<void> {
    const device = this.device(deviceIndex);
    if (!(await this.ensureRunning(device))) return;
    const window = this.windowOf(device, 0);
    const profileId = device.profileId;
    if (!window || !profileId) return;
    const unsent = window.app.session(profileId).outbox.unsent.length;
    this.note(`${window.id}: staff remove the profile (${unsent} unsent animals, they were warned) and make it again`);
    const problem = await this.world.drive(window.app.removeProfile(profileId));
    if (!problem) {
      // The app died under the removal: whether it happened, the app will say when it starts again.
      this.note(`${window.id}: no answer to the removal`);
      device.removing = profileId;
      return;
    }
    if (problem.value !== null) {
      this.note(`${window.id}: the profile was not removed (${problem.value})`);
      return;
    }
    this.ledger.removeProfile(profileId);
    this.count('profile removed and made again');
    device.profileId = null;
    await this.world.makeProfile(window);
  }

  /** Staff answer the app's questions ("is it one of these?") as they truly are. */
  async answerChecks(deviceIndex: number): Promise<void> {
    const device = this.device(deviceIndex);
    if (!(await this.ensureRunning(device))) return;
    const window = this.windowOf(device, 0);
    const profileId = device.profileId;
    if (!window || !profileId) return;
    const outbox = window.app.session(profileId).outbox;
    const byKey = creationsByKey(this.world.service);
    for (const entry of [...outbox.checkNeeded]) {
      const told = this.ledger.told.get(entry.localId);
      const mine = (byKey.get(entry.idempotencyKey) ?? []).map((creation) => creation.animal.id);
      const candidates = entry.check?.candidates.map((animal) => animal.id) ?? [];
      const match = candidates.find((id) => mine.includes(id));
      this.checksAnswered += 1;
      if (match) {
        this.note(`${window.id}: staff: ${entry.animal.name} is ${match}`);
        if (told) told.confirmedId = match;
        await this.world.drive(outbox.confirmMatch(entry.localId, match));
      } else if (mine.length > 0 && candidates.length === 0) {
        this.note(`${window.id}: staff see ${entry.animal.name} on the service (${mine[0]}) and discard the entry`);
        if (told) told.discardedOnService = true;
        await this.world.drive(outbox.discard(entry.localId));
      } else {
        if (mine.length > 0 && told) told.staffSentAgain = true;
        this.note(
          `${window.id}: staff: send ${entry.animal.name}${mine.length > 0 ? ' (it is there, but not among those shown)' : ''}`,
        );
        await this.world.drive(outbox.sendMine(entry.localId));
      }
    }
  }

  /** The end of the day: everything healed, the app left to work, staff answering as they come. */
  async end(): Promise<void> {
    this.note('evening: the service is up, disks have room, every app runs');
    this.world.service.mood = { kind: 'up' };
    for (const device of this.devices) {
      device.disk.full = false;
      device.disk.disarm();
      await this.ensureRunning(device);
    }
    await this.afterStep();
    const until = this.loop.mono + DRAIN_LIMIT_MS;
    while (this.loop.mono < until) {
      await this.loop.advance(LOOK_EVERY_MS);
      for (const [index] of this.devices.entries()) await this.answerChecks(index);
      this.render();
      await this.loop.settle();
      if (this.#looksDone()) break;
    }
    await this.check(checkAfterStep);
    await this.check(checkEndOfDay);
  }

  /** What staff see suggests the day's work is done (the full checks follow). */
  #looksDone(): boolean {
    const byKey = creationsByKey(this.world.service);
    const owed = this.ledger.owed();
    if (owed.some((told) => !byKey.has(told.idempotencyKey) && told.confirmedId === null)) return false;
    for (const device of this.devices) {
      const window = device.liveWindows()[0];
      if (!device.profileId || !window) return false;
      if (window.app.session(device.profileId).outbox.entries.some((entry) => entry.state !== 'sent')) return false;
    }
    return true;
  }

  figures(): DayFigures {
    const staffDuplicates = [...this.ledger.told.values()].filter((told) => told.staffSentAgain).length;
    const hash = createHash('sha256');
    for (const line of this.log) hash.update(`${line}\n`);
    for (const creation of this.world.service.creations) hash.update(`${JSON.stringify(creation)}\n`);
    for (const told of this.ledger.told.values()) hash.update(`${JSON.stringify(told)}\n`);
    hash.update(`${this.loop.mono} ${this.loop.tasksRun}`);
    const counts = { ...this.counts };
    for (const device of this.devices)
      for (const [kind, n] of Object.entries(device.crashes)) counts[kind] = (counts[kind] ?? 0) + n;
    return {
      counts,
      digest: hash.digest('hex').slice(0, 16),
      animals: this.ledger.told.size,
      lost: 0,
      twice: 0,
      untrue: 0,
      steps: this.steps,
      virtualMs: this.loop.mono,
      tasks: this.loop.tasksRun,
      requests: this.world.service.requests,
      checksAnswered: this.checksAnswered,
      staffDuplicates,
    };
  }
}
