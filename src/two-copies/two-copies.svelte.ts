/**
 * One profile's storage as staff see it. On start it opens the profile's database and brings the
 * two copies together (restore.ts); it does so again whenever the browser closes the database
 * under the app (what clearing the site's data does) or a write to it fails. A database the
 * browser cannot open (damaged, blocked, over quota) is reported to the app, which goes on with one
 * in this window's memory filled from the safety copy (db.ts `openMemoryProfileDb`). What staff
 * should know is `notice`; Diagnostics gets each event (StorageHealthStore).
 */
import { t } from '../language';
import { type Clock, systemClock } from '../shared/basics/clock';
import { errorMessage } from '../shared/basics/errors';
import type { ProfileDb } from '../storage';
import { dismissRestored, restoredRecord, restoreFromSafetyCopy, type RestoreReport } from './restore';
import type { SafetyCopyPort } from './safety-copy-port';
import type { StorageHealthStore } from './storage-health.svelte';

export interface StorageNotice {
  tone: 'warn' | 'error';
  text: string;
}

export interface TwoCopiesHooks {
  /** The browser cannot open the database: the app goes on with one in memory. */
  unusable(reason: string): void;
  /** Entries were put back into the outbox: they are to be sent. */
  restored(): void;
}

/** At most this many names of restored animals are said; the rest are counted. */
const NAMES_SHOWN = 5;

/** "3 animals restored from this computer's safety copy" and the names, for staff. */
function restoredText(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN
    ? t('storage.restoredMore', { count: names.length, names: shown, more: names.length - NAMES_SHOWN })
    : t('storage.restored', { count: names.length, names: shown });
}

/** "3 animals from the earlier version were recovered" and the names (the browser host's update). */
function recoveredText(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).join(', ');
  return names.length > NAMES_SHOWN
    ? t('storage.recoveredEarlierMore', { count: names.length, names: shown, more: names.length - NAMES_SHOWN })
    : t('storage.recoveredEarlier', { count: names.length, names: shown });
}

/** What the last check found that staff should know (the notice is made from it in the language shown). */
type Found =
  | { kind: 'compare_failed'; reason: string }
  | {
      kind: 'checked';
      memory: string | null;
      restored: readonly string[];
      /** Recovered from an earlier version's queue: the browser lost nothing. */
      earlier: readonly string[];
      problems: readonly string[];
    };

function noticeOf(found: Found): StorageNotice | null {
  if (found.kind === 'compare_failed') {
    return { tone: 'error', text: t('storage.compareFailed', { reason: found.reason }) };
  }
  const { memory, restored, earlier, problems } = found;
  const parts: string[] = [];
  if (memory !== null) parts.push(t('storage.unusable', { reason: memory }));
  else if (restored.length > 0) parts.push(t('storage.lost'));
  if (restored.length > 0) parts.push(restoredText(restored));
  if (earlier.length > 0) parts.push(recoveredText(earlier));
  if (problems.length > 0) parts.push(problems.join(' '));
  return parts.length > 0 ? { tone: memory !== null ? 'error' : 'warn', text: parts.join(' ') } : null;
}

export class TwoCopies {
  #found = $state.raw<Found | null>(null);
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
    private readonly hooks: TwoCopiesHooks,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
  ) {}

  /** What staff should know of this profile's storage, or null. */
  get notice(): StorageNotice | null {
    return this.#found && noticeOf(this.#found);
  }

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
    this.#found = null;
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
      this.#found = { kind: 'compare_failed', reason: errorMessage(error) };
      return;
    }
    if (this.#stopped) return;
    const at = this.clock.now();
    for (const text of report.problems) this.health.record({ kind: 'problem', profileId: this.profileId, at, text });
    if (report.restored.length > 0) this.hooks.restored();
    const record = await restoredRecord(this.db).catch(() => null);
    if (this.#stopped) return;
    const restored = record?.names ?? [];
    const earlier = record?.earlier ?? [];
    // Diagnostics lists a restore until staff dismiss it, also in a window opened after it.
    if (record && record.at !== this.#listedAt) {
      this.#listedAt = record.at;
      const names = [...record.names, ...earlier];
      this.health.record({ kind: 'restored', profileId: this.profileId, at: record.at, names });
    }
    this.#found = { kind: 'checked', memory, restored, earlier, problems: report.problems };
  }
}
