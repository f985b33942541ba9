/**
 * The outbox of one profile: animals entered by staff, kept durably until the service has
 * confirmed them. Every row read is re-validated; a row that fails is moved to the
 * quarantine table (never silently dropped) and reported to `onQuarantine` listeners.
 */
import type { Animal, NewPet } from '../shared/animal';
import type { AppError } from '../shared/result';
import { AnimalCache } from './animal-cache';
import type { OutboxCheck, OutboxEntry, OutboxRow, ProfileDb, QuarantinedRow } from './db';
import { OutboxRowSchema, OutboxStateError, parsePet, toEntry, type Quarantined } from './outbox-records';

export { InvalidPetError, OutboxStateError, type Quarantined } from './outbox-records';

export interface Clock {
  now(): number;
}

const systemClock: Clock = { now: () => Date.now() };

/** The fields of an entry whose outcome is settled: no error, no wait, no doubt, nothing to check. */
const SETTLED = { lastError: null, nextAttemptAt: null, failures: 0, doubtSince: null, check: null } as const;

/** Sent entries are kept this long (so the UI can show "sent" and the server id), then pruned. */
export const SENT_KEPT_MS = 24 * 60 * 60 * 1000;

export class Outbox {
  private readonly cache: AnimalCache;
  private readonly quarantineListeners = new Set<(rows: Quarantined[]) => void>();

  constructor(
    private readonly db: ProfileDb,
    private readonly clock: Clock = systemClock,
  ) {
    this.cache = new AnimalCache(db);
  }

  /** Adds an entry; resolves only after the transaction committed (strict durability). */
  async enqueue(pet: NewPet): Promise<OutboxEntry> {
    const [entry] = await this.enqueueMany([pet]);
    return entry!;
  }

  /**
   * Adds several entries in the given order, each with its own idempotency key, in one
   * transaction: all are on disk (strict durability) when it resolves, or none is. Every pet is
   * checked first; one invalid pet adds nothing.
   */
  async enqueueMany(pets: readonly NewPet[]): Promise<OutboxEntry[]> {
    const valid = pets.map(parsePet);
    const db = this.db;
    const now = this.clock.now();
    const rows: OutboxRow[] = valid.map((pet) => ({
      localId: crypto.randomUUID(),
      idempotencyKey: crypto.randomUUID(),
      pet,
      createdAt: now,
      updatedAt: now,
      state: 'queued',
      attempts: 0,
      lastError: null,
      serverId: null,
      nextAttemptAt: null,
      failures: 0,
      doubtSince: null,
      check: null,
      notOurs: [],
      seq: 0,
    }));
    await db.transaction('rw', db.outbox, async () => {
      const last = await db.outbox.orderBy('seq').last();
      let seq = last?.seq ?? 0;
      for (const row of rows) row.seq = ++seq;
      await db.outbox.bulkAdd(rows);
    });
    return rows.map(toEntry);
  }

  /** Every valid entry in creation order; invalid rows are moved to the quarantine. */
  async list(): Promise<OutboxEntry[]> {
    const db = this.db;
    const moved: Quarantined[] = [];
    const rows = await db.transaction('rw', db.outbox, db.quarantine, async () => {
      const keys = await db.outbox.toCollection().primaryKeys();
      const raws = await db.outbox.bulkGet(keys);
      const valid: OutboxRow[] = [];
      for (const [index, key] of keys.entries()) {
        const raw: unknown = raws[index];
        const parsed = OutboxRowSchema.safeParse(raw);
        if (parsed.success) {
          valid.push(parsed.data);
          continue;
        }
        const reason = parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; ');
        const item: QuarantinedRow = {
          id: `outbox:${String(key)}`,
          table: 'outbox',
          raw,
          reason,
          at: this.clock.now(),
        };
        await db.quarantine.put(item);
        await db.outbox.delete(key);
        moved.push({ id: item.id, raw, reason, at: item.at });
      }
      return valid;
    });
    if (moved.length > 0) for (const listener of this.quarantineListeners) listener(moved);
    return rows.sort((a, b) => a.seq - b.seq).map(toEntry);
  }

  /**
   * Every valid entry in creation order, in a read-only transaction (usable inside Dexie's
   * `liveQuery`); invalid rows are only counted here; `list()` moves them aside.
   */
  async readValid(): Promise<{ entries: OutboxEntry[]; invalid: number }> {
    const rows = await this.db.outbox.orderBy('seq').toArray();
    const entries: OutboxEntry[] = [];
    for (const row of rows) {
      const parsed = OutboxRowSchema.safeParse(row);
      if (parsed.success) entries.push(toEntry(parsed.data));
    }
    const total = await this.db.outbox.count();
    return { entries, invalid: total - entries.length };
  }

  /** Entries still to send (queued or sending), in creation order. */
  async pending(): Promise<OutboxEntry[]> {
    return (await this.list()).filter((entry) => entry.state === 'queued' || entry.state === 'sending');
  }

  async markSending(localId: string): Promise<void> {
    await this.update(localId, (row) => ({ state: 'sending', attempts: row.attempts + 1 }));
  }

  /** The service confirmed the entry: it becomes `sent`, and the animal goes into the cache. */
  async markSent(localId: string, animal: Animal): Promise<void> {
    const db = this.db;
    const now = this.clock.now();
    await db.transaction('rw', db.outbox, db.animals, async () => {
      await this.update(localId, () => ({ state: 'sent', serverId: animal.id, ...SETTLED }), false);
      await this.cache.saveAnimal(animal, now);
    });
  }

  /** The service refused the payload (a 400 says nothing was stored): staff edit or discard it. */
  async markNeedsAttention(localId: string, error: AppError): Promise<void> {
    await this.update(localId, () => ({ state: 'needs_attention', ...SETTLED, lastError: error }));
  }

  /**
   * Back to `queued`, to be tried again at `nextAttemptAt` with the same idempotency key, one
   * more failure counted. A doubt (a send may have reached the service unanswered) lasts
   * until the entry is confirmed or staff answer it; `doubtSince` opens one if none is open.
   */
  async markRetry(localId: string, error: AppError, nextAttemptAt: number, doubtSince: number | null): Promise<void> {
    await this.update(localId, (row) => ({
      state: 'queued',
      lastError: error,
      nextAttemptAt,
      failures: row.failures + 1,
      doubtSince: row.doubtSince ?? doubtSince,
    }));
  }

  /** The app cannot tell whether the entry reached the service: staff are asked (see `check`). */
  async markCheckNeeded(localId: string, check: OutboxCheck): Promise<void> {
    await this.update(localId, () => ({ state: 'check_needed', check, nextAttemptAt: null, lastError: null }));
  }

  /** Staff: "it is this one". The candidate becomes the entry's record; nothing more is sent. */
  async confirmMatch(localId: string, animalId: string): Promise<void> {
    await this.answer(localId, async (row) => {
      const animal = row.check?.candidates.find((candidate) => candidate.id === animalId);
      if (!animal) throw new OutboxStateError('The service animal chosen is not one the check found.');
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
        throw new OutboxStateError('This entry is no longer waiting for a check (another window may have answered).');
      }
      await apply(row);
    });
  }

  /** Staff corrected a `needs_attention` entry: queued again with a new idempotency key. */
  async edit(localId: string, pet: NewPet): Promise<OutboxEntry> {
    const valid = parsePet(pet);
    const db = this.db;
    let edited: OutboxRow | null = null;
    await db.transaction('rw', db.outbox, async () => {
      const row = await db.outbox.get(localId);
      if (!row || row.state !== 'needs_attention') {
        throw new OutboxStateError(`Only an entry that needs attention can be edited (${row?.state ?? 'missing'}).`);
      }
      edited = {
        ...row,
        pet: valid,
        idempotencyKey: crypto.randomUUID(),
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

  async discard(localId: string): Promise<void> {
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

  async quarantined(): Promise<Quarantined[]> {
    const rows = await this.db.quarantine.orderBy('at').toArray();
    return rows.map(({ id, raw, reason, at }) => ({ id, raw, reason, at }));
  }

  /** Called with the rows `list()` moved aside; returns the function that unsubscribes. */
  onQuarantine(listener: (rows: Quarantined[]) => void): () => void {
    this.quarantineListeners.add(listener);
    return () => void this.quarantineListeners.delete(listener);
  }

  /** Applies a change to one row; a missing row is ignored (staff may have discarded it). */
  private async update(
    localId: string,
    change: (row: OutboxRow) => Partial<OutboxRow>,
    ownTransaction = true,
  ): Promise<void> {
    const db = this.db;
    const apply = async () => {
      const row = await db.outbox.get(localId);
      if (!row) return;
      await db.outbox.put({ ...row, ...change(row), updatedAt: this.clock.now() });
    };
    if (ownTransaction) await db.transaction('rw', db.outbox, apply);
    else await apply();
  }
}
