/**
 * The outbox of one profile: animals entered by staff, kept durably until the service has
 * confirmed them, in two copies: the core's safety copy first (src/two-copies, on this computer's
 * disk before the form says "saved"), then IndexedDB, the working copy every window reads. Staff's
 * discards and answers go to the safety copy first too, so an entry missing from IndexedDB but
 * open in the safety copy was lost by the browser, never removed on purpose (restore.ts). Animals come in already parsed (the form, the edit form and the spreadsheet
 * import parse staff's input); rows read back from IndexedDB are parsed again (`readAll`), and
 * a row that fails is set aside (`setAside`) (never silently dropped),
 * where staff see it ("Set aside", SetAsideRecords.svelte).
 */
import type { Animal, NewAnimal } from '../shared/records/animal';
import { type Clock, systemClock } from '../shared/basics/clock';
import type { SafetyEntry, SafetyOutcome } from '../shared/app-api/api';
import { describeIssues, errorMessage } from '../shared/basics/errors';
import { t } from '../language';
import type { AppError } from '../shared/app-api/result';
import { AnimalCache } from './animal-cache';
import type { ProfileDb, SetAsideRow } from './db';
import {
  keyOf,
  newOutboxEntry,
  type OutboxCheck,
  type OutboxEntry,
  type OutboxRead,
  type OutboxRow,
  OutboxRowSchema,
  OutboxStateError,
  toEntry,
  type UnreadableRow,
} from './outbox-records';

/** The fields of an entry whose outcome is settled: no error, no wait, no doubt, nothing to check. */
const SETTLED = { lastError: null, nextAttemptAt: null, failures: 0, doubtSince: null, check: null } as const;

/** Sent entries are kept this long (so the UI can show "sent" and the server id), then pruned. */
export const SENT_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * The entries are in the safety copy, but the browser's storage refused them: they are kept (the
 * safety copy puts them back, see restore.ts) and the storage needs recovering.
 */
export class BrowserStorageError extends Error {
  override name = 'BrowserStorageError';
  constructor(
    readonly kept: readonly OutboxEntry[],
    options: { cause: unknown },
  ) {
    super(t('storage.browserRefused', { reason: errorMessage(options.cause) }), options);
  }
}

/**
 * What the outbox writes to the core's safety copy before IndexedDB (src/two-copies `safetyCopyOf`
 * writes it through the app API, and reads it back for restore).
 */
export interface SafetyCopyWrites {
  /** Resolves once the entries are on this computer's disk; throws SafetyCopyError otherwise. */
  keep(entries: readonly SafetyEntry[]): Promise<void>;
  settle(localId: string, outcome: SafetyOutcome): Promise<void>;
}

export class Outbox {
  private readonly cache: AnimalCache;

  /**
   * `copy`: the profile's safety copy, which adding, editing, discarding and answering need (the
   * sync engine's outbox only records what happened to sends, and has none).
   */
  constructor(
    private readonly db: ProfileDb,
    private readonly clock: Pick<Clock, 'now'> = systemClock,
    private readonly copy: SafetyCopyWrites | null = null,
  ) {
    this.cache = new AnimalCache(db);
  }

  private safetyCopy(): SafetyCopyWrites {
    if (!this.copy) throw new Error(t('storage.noSafetyCopy'));
    return this.copy;
  }

  /** Adds an entry; resolves only after the transaction committed (strict durability). */
  async enqueue(animal: NewAnimal): Promise<OutboxEntry> {
    const [entry] = await this.enqueueMany([animal]);
    return entry!;
  }

  /**
   * Adds several entries in the given order, each with its own idempotency key: first to the
   * safety copy (SafetyCopyError: none is kept), then in one IndexedDB transaction with strict
   * durability (BrowserStorageError: all are kept in the safety copy, none in IndexedDB). When it
   * resolves, all are on disk twice.
   */
  async enqueueMany(animals: readonly NewAnimal[]): Promise<OutboxEntry[]> {
    const db = this.db;
    const now = this.clock.now();
    // seq is set inside the transaction, after the last stored entry.
    const rows: OutboxRow[] = animals.map((animal) => ({ ...newOutboxEntry(animal, now), seq: 0 }));
    await this.safetyCopy().keep(rows.map(safetyEntryOf));
    try {
      await db.transaction('rw', db.outbox, async () => {
        const last = await db.outbox.orderBy('seq').last();
        let seq = last?.seq ?? 0;
        for (const row of rows) row.seq = ++seq;
        await db.outbox.bulkAdd(rows);
      });
    } catch (error) {
      throw new BrowserStorageError(rows.map(toEntry), { cause: error });
    }
    return rows.map(toEntry);
  }

  /**
   * Reads the whole outbox once and parses every row (IndexedDB is a trust boundary): the valid
   * entries in creation order and the rows that fail. Writes nothing, so it runs inside Dexie's
   * `liveQuery` too; `setAside` moves the rows that cannot be read.
   */
  async readAll(): Promise<OutboxRead> {
    const rows: unknown[] = await this.db.outbox.toArray();
    const valid: OutboxRow[] = [];
    const unreadable: UnreadableRow[] = [];
    for (const raw of rows) {
      const parsed = OutboxRowSchema.safeParse(raw);
      if (parsed.success) valid.push(parsed.data);
      else unreadable.push({ key: keyOf(raw), raw, reason: describeIssues(parsed.error.issues, { root: 'row' }) });
    }
    return { entries: valid.sort((a, b) => a.seq - b.seq).map(toEntry), unreadable };
  }

  /** The valid entries in creation order, after moving the rows that fail the schema aside. */
  async readQueue(): Promise<OutboxEntry[]> {
    const { entries, unreadable } = await this.readAll();
    await this.setAside(unreadable);
    return entries;
  }

  /**
   * Moves rows that fail the schema from the outbox to the `setAside` table, where staff see
   * them and can copy their data. A row rewritten meanwhile (and now valid) stays.
   */
  async setAside(unreadable: readonly UnreadableRow[]): Promise<void> {
    if (unreadable.length === 0) return;
    const db = this.db;
    await db.transaction('rw', db.outbox, db.setAside, async () => {
      for (const { key } of unreadable) {
        // Typed by string keys, the table may still hold a row whose key is another type.
        const raw: unknown = await db.outbox.get(key as string);
        const parsed = OutboxRowSchema.safeParse(raw);
        if (raw === undefined || parsed.success) continue;
        const row: SetAsideRow = {
          id: `outbox:${String(key)}`,
          table: 'outbox',
          raw,
          reason: describeIssues(parsed.error.issues, { root: 'row' }),
          at: this.clock.now(),
        };
        await db.setAside.put(row);
        await db.outbox.delete(key as string);
      }
    });
  }

  /**
   * The entry is being sent now; null when it is no longer there to send (staff discarded it
   * since the pass read the outbox) or no longer waiting to be sent.
   */
  async markSending(localId: string): Promise<OutboxEntry | null> {
    return this.update(localId, (row) =>
      row.state === 'queued' || row.state === 'sending' ? { state: 'sending', attempts: row.attempts + 1 } : null,
    );
  }

  /** The service confirmed the entry: it becomes `sent`, and the animal goes into the cache. */
  async markSent(localId: string, animal: Animal): Promise<OutboxEntry | null> {
    const db = this.db;
    const now = this.clock.now();
    return db.transaction('rw', db.outbox, db.animals, async () => {
      const sent = await this.update(localId, () => ({ state: 'sent', serverId: animal.id, ...SETTLED }), false);
      await this.cache.saveAnimal(animal, now);
      return sent;
    });
  }

  /** The service refused the payload (a 400 says nothing was stored): staff edit or discard it. */
  async markNeedsAttention(localId: string, error: AppError): Promise<OutboxEntry | null> {
    return this.update(localId, () => ({ state: 'needs_attention', ...SETTLED, lastError: error }));
  }

  /**
   * Back to `queued`, to be tried again at `nextAttemptAt` with the same idempotency key, one
   * more failure counted. A doubt (a send may have reached the service unanswered) lasts
   * until the entry is confirmed or staff answer it; `doubtSince` opens one if none is open.
   */
  async markRetry(
    localId: string,
    error: AppError,
    nextAttemptAt: number,
    doubtSince: number | null,
  ): Promise<OutboxEntry | null> {
    return this.update(localId, (row) => ({
      state: 'queued',
      lastError: error,
      nextAttemptAt,
      failures: row.failures + 1,
      doubtSince: row.doubtSince ?? doubtSince,
    }));
  }

  /**
   * The entry is in doubt and waits until `at` before the service is looked at (a send may
   * still be under way there): queued, the doubt kept, no failure counted, and `updatedAt` left
   * as it was (the time the wait is counted from). `reason` (a `settling` error) says why it waits.
   */
  async waitInDoubt(localId: string, at: number, doubtSince: number, reason: AppError): Promise<OutboxEntry | null> {
    const db = this.db;
    return db.transaction('rw', db.outbox, async () => {
      const row = await db.outbox.get(localId);
      if (!row || (row.state !== 'queued' && row.state !== 'sending')) return null;
      const written: OutboxRow = {
        ...row,
        state: 'queued',
        nextAttemptAt: at,
        lastError: reason,
        doubtSince: row.doubtSince ?? doubtSince,
      };
      await db.outbox.put(written);
      return toEntry(written);
    });
  }

  /** The app cannot tell whether the entry reached the service: staff are asked (see `check`). */
  async markCheckNeeded(localId: string, check: OutboxCheck): Promise<OutboxEntry | null> {
    return this.update(localId, () => ({ state: 'check_needed', check, nextAttemptAt: null, lastError: null }));
  }

  /** Staff: "it is this one". The candidate becomes the entry's record; nothing more is sent. */
  async confirmMatch(localId: string, animalId: string): Promise<void> {
    const before = await this.db.outbox.get(localId);
    const chosen = before?.state === 'check_needed' && before.check?.candidates.some((c) => c.id === animalId);
    // The safety copy hears it first: the entry is the service's animal from now on.
    if (chosen) await this.safetyCopy().settle(localId, { outcome: 'acknowledged', id: animalId });
    await this.answer(localId, async (row) => {
      const animal = row.check?.candidates.find((candidate) => candidate.id === animalId);
      if (!animal) throw new OutboxStateError(t('storage.candidateNotFound'));
      await this.markSent(localId, animal);
    });
  }

  /**
   * Staff: "send mine". Queued again with the same idempotency key: a service that keeps keys
   * answers with the first creation if there was one (never a second animal); one that does
   * not creates it, which staff chose over losing it. The candidates are remembered as not
   * this entry's, so they are not offered again, and so a replay naming one is recognised.
   */
  async sendMine(localId: string): Promise<void> {
    await this.answer(localId, async (row) => {
      const notOurs = [...new Set([...row.notOurs, ...(row.check?.candidates.map((animal) => animal.id) ?? [])])];
      await this.db.outbox.put({ ...row, state: 'queued', ...SETTLED, notOurs, updatedAt: this.clock.now() });
    });
  }

  /** Applies staff's answer to an entry still in `check_needed`, in one transaction (another window may answer too). */
  private async answer(localId: string, apply: (row: OutboxRow) => Promise<void>): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.outbox, db.animals, async () => {
      const row = await db.outbox.get(localId);
      if (row?.state !== 'check_needed') {
        throw new OutboxStateError(t('storage.noLongerChecking'));
      }
      await apply(row);
    });
  }

  /** Staff corrected a `needs_attention` entry: queued again with a new idempotency key (the safety copy first). */
  async edit(localId: string, animal: NewAnimal): Promise<OutboxEntry> {
    const db = this.db;
    const before = await db.outbox.get(localId);
    if (!before || before.state !== 'needs_attention') {
      throw new OutboxStateError(t('storage.onlyAttentionEditable', { state: before?.state ?? 'missing' }));
    }
    const idempotencyKey = crypto.randomUUID();
    await this.safetyCopy().keep([{ localId, idempotencyKey, animal, createdAt: before.createdAt }]);
    let edited: OutboxRow | null = null;
    await db.transaction('rw', db.outbox, async () => {
      const row = await db.outbox.get(localId);
      if (!row || row.state !== 'needs_attention') {
        throw new OutboxStateError(t('storage.onlyAttentionEditable', { state: row?.state ?? 'missing' }));
      }
      edited = {
        ...row,
        animal,
        idempotencyKey,
        state: 'queued',
        attempts: 0,
        ...SETTLED,
        notOurs: [],
        updatedAt: this.clock.now(),
      };
      await db.outbox.put(edited);
    });
    return toEntry(edited as unknown as OutboxRow);
  }

  /** Staff discarded the entry: the safety copy hears it first, so it is never put back. */
  async discard(localId: string): Promise<void> {
    await this.safetyCopy().settle(localId, { outcome: 'discarded' });
    await this.db.outbox.delete(localId);
  }

  /** Deletes `sent` entries confirmed more than `keptMs` ago; returns how many. */
  async pruneSent(keptMs: number = SENT_KEPT_MS): Promise<number> {
    const cutoff = this.clock.now() - keptMs;
    return this.db.outbox
      .where('state')
      .equals('sent')
      .filter((row) => row.updatedAt < cutoff)
      .delete();
  }

  /**
   * Applies a change to one row and returns the entry as written; null when the row is gone
   * (staff may have discarded it) or `change` declines (returns null). The row is the app's
   * own (read and parsed at the pass's start), so it is not parsed again.
   */
  private async update(
    localId: string,
    change: (row: OutboxRow) => Partial<OutboxRow> | null,
    ownTransaction = true,
  ): Promise<OutboxEntry | null> {
    const db = this.db;
    const apply = async () => {
      const row = await db.outbox.get(localId);
      const changed = row ? change(row) : null;
      if (!row || !changed) return null;
      const written: OutboxRow = { ...row, ...changed, updatedAt: this.clock.now() };
      await db.outbox.put(written);
      return toEntry(written);
    };
    return ownTransaction ? db.transaction('rw', db.outbox, apply) : apply();
  }
}

/** What the safety copy keeps of an entry. */
export function safetyEntryOf(entry: OutboxEntry): SafetyEntry {
  return {
    localId: entry.localId,
    idempotencyKey: entry.idempotencyKey,
    animal: entry.animal,
    createdAt: entry.createdAt,
  };
}
