/**
 * One profile's storage as staff see it. On start it opens the profile's database and brings the
 * two copies together (restore.ts); it does so again whenever the browser closes the database
 * under the app (what clearing the site's data does) or a write to it fails. A database the
 * browser cannot open (damaged, blocked, over quota) is reported to the app, which goes on with one
 * in this window's memory filled from the safety copy (db.ts `openMemoryProfileDb`). What staff
 * should know is `notice`; Diagnostics gets each event (StorageHealthStore).
 */
import { type Clock, systemClock } from '../shared/clock';
import { errorMessage } from '../shared/errors';
import type { ProfileDb } from './db';
import { dismissRestored, restoredRecord, restoreFromSafetyCopy, type RestoreReport } from './restore';
import type { SafetyCopyPort } from './safety-copy';
import type { StorageHealthStore } from './storage-health.svelte';

export interface StorageNotice {
  tone: 'warn' | 'error';
  text: string;
}

export interface ProfileStorageHooks {
  /** The browser cannot open the database: the app goes on with one in memory. */
  unusable(reason: string): void;
  /** Entries were put back into the outbox: they are to be sent. */
  restored(): void;
}

const animals = (count: number) => (count === 1 ? '1 animal' : `${count} animals`);

/** "3 animals restored from this computer's safety copy" and the names, for staff. */
function restoredText(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');
  return `${animals(names.length)} restored from this computer's safety copy (${shown}). They are sent as usual.`;
}

const UNUSABLE = (reason: string) =>
  `This computer's browser storage cannot be used (${reason}). Animals you add are kept in this computer's safety copy and sent from there; the list comes from the service.`;
const LOST = "The browser's storage on this computer lost animals of this profile (it was cleared or damaged).";

export class ProfileStorage {
  notice = $state<StorageNotice | null>(null);
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = false;
  /** The time of the restore this window last listed in Diagnostics. */
  #listedAt: number | null = null;
  readonly #onClose = () => {
    if (this.#stopped) return;
    this.health.record({ kind: 'lost', profileId: this.profileId, at: this.clock.now() });
    void this.check();
  };

  constructor(
    readonly profileId: string,
    private readonly db: ProfileDb,
    private readonly copy: SafetyCopyPort,
    private readonly health: StorageHealthStore,
    private readonly hooks: ProfileStorageHooks,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  start(): Promise<void> {
    this.db.on('close', this.#onClose);
    return this.check();
  }

  stop(): void {
    this.#stopped = true;
    this.db.on.close.unsubscribe(this.#onClose);
  }

  /** Opens the database and restores what it lost; one check at a time, one more if asked meanwhile. */
  check(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#check();
      } while (this.#again && !this.#stopped);
      this.#running = null;
    })();
    return this.#running;
  }

  /** A write to the database failed: the entries are in the safety copy; the storage is checked again. */
  writeFailed(): void {
    void this.check();
  }

  /** Staff read the notice: it goes, here and after a reload. */
  dismiss(): void {
    this.notice = null;
    void dismissRestored(this.db).catch(() => undefined);
  }

  async #check(): Promise<void> {
    const memory = this.db.inMemoryBecause;
    if (memory === null) {
      try {
        await this.db.open();
      } catch (error) {
        if (this.#stopped) return;
        const reason = errorMessage(error);
        this.health.record({ kind: 'unusable', profileId: this.profileId, at: this.clock.now(), reason });
        this.hooks.unusable(reason);
        return;
      }
    }
    let report: RestoreReport;
    try {
      report = await restoreFromSafetyCopy(this.db, this.copy, this.clock);
    } catch (error) {
      if (this.#stopped) return;
      this.notice = {
        tone: 'error',
        text: `This computer's safety copy could not be compared with the browser's storage (${errorMessage(error)}). Nothing was changed; it is tried again when the app starts.`,
      };
      return;
    }
    if (this.#stopped) return;
    const at = this.clock.now();
    for (const text of report.problems) this.health.record({ kind: 'problem', profileId: this.profileId, at, text });
    if (report.restored.length > 0) this.hooks.restored();
    const record = await restoredRecord(this.db).catch(() => null);
    if (this.#stopped) return;
    const restored = record?.names ?? [];
    // Diagnostics lists a restore until staff dismiss it, also in a window opened after it.
    if (record && record.at !== this.#listedAt) {
      this.#listedAt = record.at;
      this.health.record({ kind: 'restored', profileId: this.profileId, at: record.at, names: record.names });
    }
    const parts: string[] = [];
    if (memory !== null) parts.push(UNUSABLE(memory));
    else if (restored.length > 0) parts.push(LOST);
    if (restored.length > 0) parts.push(restoredText(restored));
    if (report.problems.length > 0) parts.push(report.problems.join(' '));
    this.notice = parts.length > 0 ? { tone: memory !== null ? 'error' : 'warn', text: parts.join(' ') } : null;
  }
}
