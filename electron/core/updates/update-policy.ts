/**
 * When the installed app looks for an update of itself, and when it may install one: the rule,
 * in plain code (the updater itself, electron-updater, is driven by electron/main/updates.ts).
 *
 * - It checks soon after start and every four hours; an update is downloaded in the background.
 * - A downloaded update installs when staff close the app, **only when no animal is waiting to be
 *   sent** (the safety copy's open entries, over every profile): an installer that replaces the app
 *   mid-queue must never be the reason an animal entered at an event does not reach the service.
 *   Until then staff read "Update ready: it installs once the 3 waiting animals are sent".
 * - A failed check is said (Diagnostics) and tried again at the next check.
 * This class is the one owner of that rule (docs/architecture.md, "Updates").
 */
import type { Clock } from '../../../src/shared/basics/clock';
import { errorMessage } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import type { UpdateStatus } from '../../../src/shared/app-api/updates';
import type { UpdateSettings } from './update-settings';

/** The first check: soon, but not in the way of the start-up's own requests. */
export const FIRST_CHECK_AFTER_MS = 30_000;
export const CHECK_EVERY_MS = 4 * 60 * 60 * 1000;

/** What the policy asks of the updater. */
export interface UpdaterPort {
  /** Looks for an update (and downloads one in the background); what it finds comes back as events. */
  check(): Promise<void>;
  /** Whether the downloaded update installs when the app is closed. */
  setInstallOnQuit(allowed: boolean): void;
}

export interface UpdatePolicyOptions {
  clock: Clock;
  settings: UpdateSettings;
  /** The updater: none outside the installed desktop app. */
  port: UpdaterPort | null;
  emit(status: UpdateStatus): void;
}

/** Why there are no updates outside the installed app (the core's language, read when sent). */
export const notInstalledApp = (): string => t('coreUpdates.notInstalledApp');

export class UpdatePolicy {
  #status: UpdateStatus;
  /** Animals still to be sent; null until the safety copy was first counted. */
  #waiting: number | null = null;
  /** A download completed while the count was not known yet. */
  #downloadedVersion: string | null = null;
  #lastCheck: number | null = null;
  #timer: unknown = null;
  #dueAt = 0;
  #disposed = false;

  constructor(private readonly options: UpdatePolicyOptions) {
    // Getters: the reason is said in the core's language when the status is read (it follows the window).
    const settings = options.settings;
    if (!options.port)
      this.#status = {
        state: 'off',
        get reason() {
          return notInstalledApp();
        },
      };
    else if (!settings.enabled)
      this.#status = {
        state: 'off',
        get reason() {
          return settings.reason;
        },
      };
    else this.#status = { state: 'idle', lastCheck: null, nextCheck: null };
  }

  status(): UpdateStatus {
    return this.#status;
  }

  /** Whether updates are on and where to look (the updater's glue configures itself by them). */
  get settings(): UpdateSettings {
    return this.options.settings;
  }

  /** Starts the schedule: the first check soon, then every four hours. */
  start(): void {
    if (this.#status.state === 'off') return;
    this.#schedule(FIRST_CHECK_AFTER_MS);
  }

  /** The number of animals still to be sent changed (the safety copy says so). */
  waitingChanged(waiting: number): void {
    this.#waiting = waiting;
    if (this.#downloadedVersion !== null && this.#status.state !== 'ready') {
      this.downloaded(this.#downloadedVersion);
    } else if (this.#status.state === 'ready' && this.#status.waiting !== waiting) {
      this.#set({ ...this.#status, waiting });
      this.options.port?.setInstallOnQuit(waiting === 0);
    }
  }

  // What the updater reports (electron/main/updates.ts forwards its events).

  checking(): void {
    if (this.#status.state === 'off' || this.#status.state === 'ready') return;
    this.#set({ state: 'checking' });
  }

  available(version: string): void {
    if (this.#status.state === 'off' || this.#status.state === 'ready') return;
    this.#lastCheck = this.options.clock.now();
    this.#set({ state: 'downloading', version, percent: null });
  }

  progress(percent: number): void {
    if (this.#status.state !== 'downloading') return;
    this.#set({ ...this.#status, percent: Math.max(0, Math.min(100, Math.round(percent))) });
  }

  notAvailable(): void {
    if (this.#status.state === 'off' || this.#status.state === 'ready') return;
    this.#lastCheck = this.options.clock.now();
    this.#set({ state: 'idle', lastCheck: this.#lastCheck, nextCheck: this.#nextCheck() });
  }

  /**
   * Downloaded and verified: installs on close once nothing is waiting to be sent. Until the
   * waiting animals were counted it may not install, and is not said to be ready.
   */
  downloaded(version: string): void {
    if (this.#status.state === 'off') return;
    this.#downloadedVersion = version;
    if (this.#waiting === null) {
      this.options.port?.setInstallOnQuit(false);
      this.#set({ state: 'downloading', version, percent: 100 });
      return;
    }
    this.#set({ state: 'ready', version, waiting: this.#waiting });
    this.options.port?.setInstallOnQuit(this.#waiting === 0);
  }

  failed(message: string): void {
    if (this.#status.state === 'off' || this.#status.state === 'ready') return;
    this.#lastCheck = this.options.clock.now();
    this.#set({ state: 'failed', message, lastCheck: this.#lastCheck, nextCheck: this.#nextCheck() });
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== null) this.options.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #nextCheck(): number | null {
    return this.#timer === null ? null : this.#dueAt;
  }

  #schedule(ms: number): void {
    if (this.#disposed) return;
    this.#dueAt = this.options.clock.now() + ms;
    this.#timer = this.options.clock.setTimeout(() => {
      this.#timer = null;
      void this.#check();
    }, ms);
    if (this.#status.state === 'idle') this.#set({ ...this.#status, nextCheck: this.#dueAt });
  }

  async #check(): Promise<void> {
    const port = this.options.port;
    // The next check is planned first: a check that never answers must not stop the schedule.
    this.#schedule(CHECK_EVERY_MS);
    // A download under way or an update waiting to be installed: nothing to look for.
    if (!port || this.#status.state === 'downloading' || this.#status.state === 'ready') return;
    try {
      await port.check();
    } catch (error) {
      this.failed(errorMessage(error));
    }
  }

  #set(status: UpdateStatus): void {
    this.#status = status;
    this.options.emit(status);
  }
}
