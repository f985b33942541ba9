/**
 * The safety copy: the core's own record of every animal staff entered, one journal per profile
 * in the app's data folder (`safety-copy/<profileId>.jsonl`), so that an entry the browser's
 * storage loses can be put back (docs/architecture.md, "Two copies of every animal").
 *
 * Records, appended in order and each on disk before the call that wrote it answers:
 * - `kept`: an entry staff entered (or edited: same `localId`, new key and payload), in a batch;
 *   `batch_done`: the batch is whole (an import kept in several calls counts only when whole);
 * - `attempt`: a creation with the entry's key is about to be sent; `not_sent`: it certainly did
 *   not reach the service (no connection was made). An attempt not followed by `not_sent` leaves
 *   a doubt: restored, the entry goes through the outbox's doubt rules, never blindly resent;
 * - `acknowledged` (the service created it, with its id) and `discarded` (staff discarded it):
 *   the entry is settled and never restored again;
 * - an entry recovered from an earlier version of the browser host (`recover`: a queue the browser
 *   kept at that version's address) is `kept` with `earlier: true`; `earlier_version` marks an entry
 *   the journal had already as found there too. Either way it is said to staff as such.
 * When every entry of a journal is settled, the file is compacted (atomically) to nothing.
 */
import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { Int64, NewAnimal } from '../../../src/shared/records/animal';
import type { SafetyCopyRead, SafetyEntry, SafetyOutcome } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { describeIssues } from '../../../src/shared/basics/errors';
import { createEmitter, type Disposer, type Emitter } from '../../../src/shared/basics/emitter';
import { t } from '../../../src/shared/i18n';
import { type JournalFs, JournalFile, nodeJournalFs } from './journal-file';

const Base = { v: z.literal(1), at: z.number() };
const Uuid = z.uuid();
export const JournalRecord = z.discriminatedUnion('type', [
  z.object({
    ...Base,
    type: z.literal('kept'),
    batch: Uuid,
    localId: Uuid,
    idempotencyKey: Uuid,
    animal: NewAnimal,
    createdAt: z.number(),
    /** Kept in doubt (the window's copy of an entry in doubt): restored in doubt. */
    doubtSince: z.optional(z.number()),
    /** Recovered from an earlier version's queue (electron/host/earlier-origin.ts). */
    earlier: z.literal(true).optional(),
  }),
  z.object({ ...Base, type: z.literal('batch_done'), batch: Uuid }),
  z.object({ ...Base, type: z.literal('earlier_version'), localId: Uuid }),
  z.object({ ...Base, type: z.literal('attempt'), idempotencyKey: Uuid }),
  z.object({ ...Base, type: z.literal('not_sent'), idempotencyKey: Uuid }),
  z.object({ ...Base, type: z.literal('acknowledged'), localId: Uuid, id: Int64 }),
  z.object({ ...Base, type: z.literal('discarded'), localId: Uuid }),
]);
export type JournalRecord = z.infer<typeof JournalRecord>;

/** An entry as the journal knows it. */
interface EntryState {
  entry: SafetyEntry;
  batch: string;
  /** When a send of the current key may have reached the service unanswered (null: none did). */
  doubtSince: number | null;
  /** The attempt under way or cut off (no outcome written yet). */
  pendingAttempt: number | null;
  settled: boolean;
  /** Recovered from an earlier version's queue. */
  earlier: boolean;
}

interface ProfileJournal {
  file: JournalFile;
  entries: Map<string, EntryState>;
  byKey: Map<string, string>;
  doneBatches: Set<string>;
  /** What reading the file found: a torn tail, damaged lines, records that fail the schema. */
  problems: string[];
  /** An append failed part-way: the file is read again (its torn tail cut) before the next write. */
  stale: boolean;
}

export interface SafetyCopyOptions {
  /** The app's data folder. */
  dataDir: string;
  clock: Pick<Clock, 'now'>;
  fs?: JournalFs;
  /** Told what a journal's reading found, for the log (never a key: the journal holds none). */
  logError?: (message: string) => void;
}

/** What the journal answers of a profile (the `safetyCopy` channel's answer, declared by the contract). */
export type { SafetyCopyRead };

/** An entry of an earlier version's queue, as the browser host hands it over. */
export interface RecoveredEntry extends SafetyEntry {
  /** A send of it may have reached the service: it comes back in doubt (the outbox's doubt rules). */
  inDoubt: boolean;
}

/** What `recover` did: entries kept now, and entries the journal already had (never kept twice). */
export interface RecoverReport {
  kept: number;
  known: number;
}

export class SafetyCopy {
  readonly #journals = new Map<string, Promise<ProfileJournal>>();
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #fs: JournalFs;
  readonly #changed: Emitter;

  constructor(private readonly options: SafetyCopyOptions) {
    this.#fs = options.fs ?? nodeJournalFs;
    const logError = options.logError;
    // Without a log, the emitter's own report (the console).
    this.#changed = createEmitter(
      logError
        ? { onListenerError: (error) => logError(`safety copy: a change listener failed (${String(error)})`) }
        : {},
    );
  }

  /** The journal's path of a profile (profile ids are `[a-z0-9-]`, so a safe file name). */
  pathOf(profileId: string): string {
    return join(this.options.dataDir, 'safety-copy', `${profileId}.jsonl`);
  }

  /** Keeps entries of a batch; the batch counts once a call says it is complete. Resolves when on disk. */
  keep(profileId: string, batch: string, entries: readonly SafetyEntry[], complete: boolean): Promise<number> {
    return this.#write(profileId, async (journal) => {
      const at = this.options.clock.now();
      const records: JournalRecord[] = entries.map((entry) => ({ v: 1, at, type: 'kept', batch, ...entry }));
      if (complete) records.push({ v: 1, at, type: 'batch_done', batch });
      await this.#append(journal, records);
      return entries.length;
    });
  }

  /**
   * A creation with this key is about to be sent: true once that is on disk, false when the key
   * is none of the journal's (an entry from before the safety copy, or no entry at all).
   */
  attempt(profileId: string, idempotencyKey: string): Promise<boolean> {
    return this.#write(profileId, async (journal) => {
      if (!this.#openKey(journal, idempotencyKey)) return false;
      await this.#append(journal, [{ v: 1, at: this.options.clock.now(), type: 'attempt', idempotencyKey }]);
      return true;
    });
  }

  /** The creation certainly did not reach the service (no connection was made). */
  notSent(profileId: string, idempotencyKey: string): Promise<void> {
    return this.#write(profileId, async (journal) => {
      if (!this.#openKey(journal, idempotencyKey)) return;
      await this.#append(journal, [{ v: 1, at: this.options.clock.now(), type: 'not_sent', idempotencyKey }]);
    });
  }

  /** The service created the entry sent with this key (its id). */
  acknowledgeKey(profileId: string, idempotencyKey: string, id: string): Promise<boolean> {
    return this.#write(profileId, async (journal) => {
      const localId = this.#openKey(journal, idempotencyKey);
      if (!localId) return false;
      await this.#settle(journal, { v: 1, at: this.options.clock.now(), type: 'acknowledged', localId, id });
      return true;
    });
  }

  /** An entry's end: acknowledged with the service's id (staff: "it is this one"), or discarded by staff. */
  settle(profileId: string, localId: string, outcome: SafetyOutcome) {
    return this.#write(profileId, async (journal) => {
      const state = journal.entries.get(localId);
      if (!state || state.settled) return false;
      const at = this.options.clock.now();
      await this.#settle(
        journal,
        outcome.outcome === 'acknowledged'
          ? { v: 1, at, type: 'acknowledged', localId, id: outcome.id }
          : { v: 1, at, type: 'discarded', localId },
      );
      return true;
    });
  }

  /**
   * Keeps the entries of an earlier version's queue, in one batch and one write (on disk when it
   * resolves), each with its own ids and flagged as recovered. An entry the journal knows already
   * (by its localId or its key, open or settled and not yet compacted away) is not kept again: an
   * open one is only flagged. One that may have been sent comes back in doubt: an `attempt` of its
   * key without an outcome.
   */
  recover(profileId: string, entries: readonly RecoveredEntry[]): Promise<RecoverReport> {
    return this.#write(profileId, async (journal) => {
      const at = this.options.clock.now();
      const batch = randomUUID();
      const kept: JournalRecord[] = [];
      const marks: JournalRecord[] = [];
      const attempts: JournalRecord[] = [];
      const seen = new Set<string>();
      let known = 0;
      for (const { localId, idempotencyKey, animal, createdAt, inDoubt } of entries) {
        const entry: SafetyEntry = { localId, idempotencyKey, animal, createdAt };
        if (seen.has(entry.localId) || seen.has(entry.idempotencyKey)) continue;
        seen.add(entry.localId).add(entry.idempotencyKey);
        const before = journal.entries.get(entry.localId) ?? this.#byKey(journal, entry.idempotencyKey);
        if (before) {
          known += 1;
          if (!before.settled && !before.earlier)
            marks.push({ v: 1, at, type: 'earlier_version', localId: before.entry.localId });
          continue;
        }
        kept.push({ v: 1, at, type: 'kept', batch, ...entry, earlier: true });
        if (inDoubt) attempts.push({ v: 1, at, type: 'attempt', idempotencyKey: entry.idempotencyKey });
      }
      const records = [...kept, ...(kept.length > 0 ? [{ v: 1, at, type: 'batch_done', batch } as const] : [])];
      if (records.length + marks.length > 0) await this.#append(journal, [...records, ...attempts, ...marks]);
      return { kept: kept.length, known };
    });
  }

  /** The open entries, in the order entered, with what reading the journal found. */
  read(profileId: string): Promise<SafetyCopyRead> {
    return this.#write(profileId, async (journal) => ({
      entries: [...journal.entries.values()]
        .filter((state) => !state.settled && journal.doneBatches.has(state.batch))
        .map((state) => ({
          ...state.entry,
          doubtSince: state.doubtSince ?? state.pendingAttempt,
          ...(state.earlier ? { fromEarlierVersion: true as const } : {}),
        })),
      problems: [...journal.problems],
    }));
  }

  /**
   * How many entries are open (neither acknowledged nor discarded) over every profile's journal,
   * those on disk not yet read included: the animals this computer still has to send.
   */
  async openCount(): Promise<number> {
    const ids = new Set([...this.#journals.keys(), ...(await this.#profilesOnDisk())]);
    let open = 0;
    for (const profileId of ids) {
      open += await this.#write(profileId, async (journal) => {
        let count = 0;
        for (const state of journal.entries.values())
          if (!state.settled && journal.doneBatches.has(state.batch)) count += 1;
        return count;
      });
    }
    return open;
  }

  /** `listener` is called after each change written to a journal (the open count may differ); returns the unsubscribe. */
  onChange(listener: () => void): Disposer {
    return this.#changed.on(listener);
  }

  async #profilesOnDisk(): Promise<string[]> {
    try {
      const names = await readdir(join(this.options.dataDir, 'safety-copy'));
      return names.filter((name) => /^[a-z0-9-]+\.jsonl$/.test(name)).map((name) => name.slice(0, -'.jsonl'.length));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Deletes a removed profile's journal (staff were told its unsent animals go with it). */
  forget(profileId: string): Promise<void> {
    return this.#write(profileId, async (journal) => {
      await journal.file.remove();
      this.#journals.delete(profileId);
      queueMicrotask(() => this.#changed.emit());
    });
  }

  /** Runs `task` after every earlier write of the profile (one at a time, in order). */
  #write<T>(profileId: string, task: (journal: ProfileJournal) => Promise<T>): Promise<T> {
    const previous = this.#queues.get(profileId) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        let journal = await this.#journal(profileId);
        if (journal.stale) {
          this.#journals.delete(profileId);
          journal = await this.#journal(profileId);
        }
        return task(journal);
      });
    this.#queues.set(profileId, run);
    return run;
  }

  #journal(profileId: string): Promise<ProfileJournal> {
    let loading = this.#journals.get(profileId);
    if (!loading) {
      loading = this.#load(profileId);
      this.#journals.set(profileId, loading);
      loading.catch(() => this.#journals.delete(profileId));
    }
    return loading;
  }

  async #load(profileId: string): Promise<ProfileJournal> {
    const file = new JournalFile(this.pathOf(profileId), this.#fs);
    const read = await file.read();
    const journal: ProfileJournal = {
      file,
      entries: new Map(),
      byKey: new Map(),
      doneBatches: new Set(),
      problems: [],
      stale: false,
    };
    if (read.tornTail !== null) {
      journal.problems.push(t('core.journalTornTail', { profileId }));
    }
    if (read.damaged.length > 0) {
      journal.problems.push(
        t('core.journalDamaged', { count: read.damaged.length, profileId, file: file.setAsidePath }),
      );
    }
    let unreadable = 0;
    for (const raw of read.records) {
      const parsed = JournalRecord.safeParse(raw);
      if (parsed.success) this.#apply(journal, parsed.data);
      else {
        unreadable += 1;
        this.options.logError?.(
          `safety copy ${profileId}: a record was left out (${describeIssues(parsed.error.issues)})`,
        );
      }
    }
    if (unreadable > 0) {
      journal.problems.push(
        `${unreadable} record(s) of the safety copy of ${profileId} could not be read and were left out.`,
      );
    }
    for (const problem of journal.problems) this.options.logError?.(`safety copy: ${problem}`);
    return journal;
  }

  #apply(journal: ProfileJournal, record: JournalRecord): void {
    switch (record.type) {
      case 'kept': {
        const { localId, idempotencyKey, animal, createdAt, batch } = record;
        const before = journal.entries.get(localId);
        if (before) journal.byKey.delete(before.entry.idempotencyKey);
        journal.entries.set(localId, {
          entry: { localId, idempotencyKey, animal, createdAt: before?.entry.createdAt ?? createdAt },
          // an edit keeps the batch the entry was accepted in
          batch: before?.batch ?? batch,
          doubtSince: record.doubtSince ?? null,
          pendingAttempt: null,
          settled: false,
          earlier: record.earlier === true || before?.earlier === true,
        });
        journal.byKey.set(idempotencyKey, localId);
        return;
      }
      case 'batch_done':
        journal.doneBatches.add(record.batch);
        return;
      case 'earlier_version': {
        const state = journal.entries.get(record.localId);
        if (state) state.earlier = true;
        return;
      }
      case 'attempt': {
        const state = this.#byKey(journal, record.idempotencyKey);
        if (!state) return;
        // an earlier attempt left without an outcome may have reached the service
        if (state.pendingAttempt !== null) state.doubtSince ??= state.pendingAttempt;
        state.pendingAttempt = record.at;
        return;
      }
      case 'not_sent': {
        const state = this.#byKey(journal, record.idempotencyKey);
        if (state) state.pendingAttempt = null;
        return;
      }
      case 'acknowledged':
      case 'discarded': {
        const state = journal.entries.get(record.localId);
        if (state) state.settled = true;
        return;
      }
    }
  }

  #byKey(journal: ProfileJournal, key: string): EntryState | undefined {
    const localId = journal.byKey.get(key);
    return localId ? journal.entries.get(localId) : undefined;
  }

  /** The localId of the open entry sent with this key, or null. */
  #openKey(journal: ProfileJournal, key: string): string | null {
    const state = this.#byKey(journal, key);
    return state && !state.settled ? state.entry.localId : null;
  }

  async #append(journal: ProfileJournal, records: JournalRecord[]): Promise<void> {
    try {
      await journal.file.append(records);
    } catch (error) {
      journal.stale = true;
      throw error;
    }
    for (const record of records) this.#apply(journal, record);
    queueMicrotask(() => this.#changed.emit());
  }

  /**
   * Writes an entry's end. When no entry of a whole batch is left open, the file is compacted:
   * replaced by the entries of batches still being kept (an import between two of its calls),
   * usually nothing.
   */
  async #settle(journal: ProfileJournal, record: JournalRecord): Promise<void> {
    await this.#append(journal, [record]);
    const states = [...journal.entries.values()];
    if (states.some((state) => !state.settled && journal.doneBatches.has(state.batch))) return;
    const unfinished = states.filter((state) => !state.settled);
    const at = this.options.clock.now();
    const records: JournalRecord[] = unfinished.map((state) => {
      const doubt = state.doubtSince ?? state.pendingAttempt;
      return {
        v: 1,
        at,
        type: 'kept',
        batch: state.batch,
        ...state.entry,
        ...(doubt !== null ? { doubtSince: doubt } : {}),
        ...(state.earlier ? { earlier: true as const } : {}),
      };
    });
    try {
      await journal.file.replace(records);
    } catch (error) {
      // The settled records are on disk: the compaction is tried again at the next end.
      this.options.logError?.(`safety copy: compaction failed (${String(error)})`);
      return;
    }
    journal.entries.clear();
    journal.byKey.clear();
    journal.doneBatches.clear();
    for (const kept of records) this.#apply(journal, kept);
  }
}
