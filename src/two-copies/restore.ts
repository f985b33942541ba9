/**
 * Brings a profile's two copies together (on start, and after the browser's storage failed):
 * - an entry open in the safety copy and missing from IndexedDB was lost by the browser (staff's
 *   discards and answers reach the safety copy first): it is put back into the outbox with its own
 *   idempotency key, in the order entered, queued; with a doubt when a send of it may have reached
 *   the service unanswered (so the outbox's doubt rules decide, never a blind resend);
 * - an entry IndexedDB holds as sent while the safety copy still has it open is settled there
 *   (the core's own acknowledgement could not be written);
 * - an unsent entry of IndexedDB that the safety copy lacks (kept before the safety copy existed,
 *   or acknowledged by the core while the window that sent it never heard) is kept there too, in
 *   doubt when it is in doubt here.
 * An entry the browser host recovered from an earlier version's queue (`fromEarlierVersion`) is put
 * back the same way and said as such: the browser lost nothing, the app moved to a new address.
 * An acknowledged or discarded entry is never put back.
 */
import type { Clock } from '../shared/basics/clock';
import { newOutboxEntry, type OutboxRow, OutboxRowSchema, type ProfileDb, safetyEntryOf } from '../storage';
import type { SafetyCopyPort } from './safety-copy-port';

/**
 * A restore staff have not dismissed yet, kept in the profile's database (`meta`) in the same
 * transaction as the entries put back, so that it is said even when the window that restored
 * them is closed at once (a reload, a restart).
 */
export const RESTORED_KEY = 'restored-from-safety-copy';
/** `names`: entries the browser lost; `earlier`: entries recovered from an earlier version's queue. */
export type RestoredRecord = { at: number; names: string[]; earlier?: string[] };

const isNames = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((name) => typeof name === 'string');

function isRestoredRecord(value: unknown): value is RestoredRecord {
  const record = value as Partial<RestoredRecord> | null;
  return (
    typeof record?.at === 'number' && isNames(record.names) && (record.earlier === undefined || isNames(record.earlier))
  );
}

/** The restore not dismissed yet, or null. */
export async function restoredRecord(db: ProfileDb): Promise<RestoredRecord | null> {
  const value: unknown = (await db.meta.get(RESTORED_KEY))?.value;
  return isRestoredRecord(value) ? value : null;
}

/** Staff read it: the restore is not said again. */
export async function dismissRestored(db: ProfileDb): Promise<void> {
  await db.meta.delete(RESTORED_KEY);
}

export interface RestoreReport {
  /** The entries put back, in the order entered (`earlier`: recovered from an earlier version's queue). */
  restored: Array<{ name: string; categoryId: string; createdAt: number; earlier: boolean }>;
  /** Entries settled in the safety copy because IndexedDB had them as sent. */
  settled: number;
  /** Unsent entries of IndexedDB now kept in the safety copy too. */
  copied: number;
  /** What reading the safety copy found (a torn or damaged line). */
  problems: string[];
}

export async function restoreFromSafetyCopy(
  db: ProfileDb,
  copy: SafetyCopyPort,
  clock: Pick<Clock, 'now'>,
): Promise<RestoreReport> {
  const journal = await copy.read();
  // Raw rows: a row that fails its schema is the outbox's to set aside, but it is still there.
  const rows: unknown[] = await db.outbox.toArray();
  const present = new Map<string, unknown>();
  for (const row of rows) {
    const localId = (row as { localId?: unknown } | null)?.localId;
    if (typeof localId === 'string') present.set(localId, row);
  }
  const journalIds = new Set(journal.entries.map((entry) => entry.localId));

  const missing = journal.entries.filter((entry) => !present.has(entry.localId));
  let restored: OutboxRow[] = [];
  const earlier = new Set(journal.entries.filter((entry) => entry.fromEarlierVersion).map((entry) => entry.localId));
  if (missing.length > 0) {
    const now = clock.now();
    await db.transaction('rw', db.outbox, db.meta, async () => {
      const last = await db.outbox.orderBy('seq').last();
      let seq = last?.seq ?? 0;
      restored = [];
      for (const entry of missing) {
        // Another window may have restored it meanwhile.
        if (await db.outbox.get(entry.localId)) continue;
        restored.push({
          ...newOutboxEntry(entry.animal, entry.createdAt),
          localId: entry.localId,
          idempotencyKey: entry.idempotencyKey,
          updatedAt: now,
          doubtSince: entry.doubtSince,
          seq: ++seq,
        });
      }
      await db.outbox.bulkAdd(restored);
      if (restored.length === 0) return;
      const before = await restoredRecord(db);
      const namesOf = (fromEarlier: boolean) =>
        restored.filter((row) => earlier.has(row.localId) === fromEarlier).map((row) => row.animal.name);
      const earlierNames = [...(before?.earlier ?? []), ...namesOf(true)];
      const record: RestoredRecord = {
        at: now,
        names: [...(before?.names ?? []), ...namesOf(false)],
        ...(earlierNames.length > 0 ? { earlier: earlierNames } : {}),
      };
      await db.meta.put({ key: RESTORED_KEY, value: record });
    });
  }

  let settled = 0;
  for (const entry of journal.entries) {
    const parsed = OutboxRowSchema.safeParse(present.get(entry.localId));
    if (parsed.success && parsed.data.state === 'sent' && parsed.data.serverId) {
      await copy.settle(entry.localId, { outcome: 'acknowledged', id: parsed.data.serverId });
      settled += 1;
    }
  }

  const unkept: OutboxRow[] = [];
  for (const row of present.values()) {
    const parsed = OutboxRowSchema.safeParse(row);
    if (parsed.success && parsed.data.state !== 'sent' && !journalIds.has(parsed.data.localId))
      unkept.push(parsed.data);
  }
  unkept.sort((a, b) => a.seq - b.seq);
  // In doubt here, in doubt there: the safety copy may even have heard the service create it (or
  // staff say which animal it is) and forgotten it since; restored one day, it must go through the
  // doubt rules, never be resent blindly. An entry cut off mid-send or one staff are asked about
  // ("check needed": its doubt time is not kept on the row) is in doubt.
  const kept = unkept.map((row) => {
    const inDoubt = row.state === 'sending' || row.state === 'check_needed';
    const doubtSince = row.doubtSince ?? (inDoubt ? row.updatedAt : null);
    return doubtSince === null ? safetyEntryOf(row) : { ...safetyEntryOf(row), doubtSince };
  });
  if (kept.length > 0) await copy.keep(kept);

  return {
    restored: restored.map((row) => ({
      name: row.animal.name,
      categoryId: row.animal.categoryId,
      createdAt: row.createdAt,
      earlier: earlier.has(row.localId),
    })),
    settled,
    copied: unkept.length,
    problems: journal.problems,
  };
}
