/**
 * Reading the outbox back from IndexedDB, a trust boundary: every row is parsed again, and a
 * row that fails is moved to the quarantine table by `setAsideRows` (never silently dropped),
 * where staff see it ("Set aside", src/components/SetAsideRecords.svelte). `Outbox` (outbox.ts)
 * is the one public way in: `readAll`, `readQueue`, `setAside`.
 */
import type { Clock } from '../shared/clock';
import type { ProfileDb, QuarantinedRow } from './db';
import { describeIssues, keyOf, OutboxRowSchema, toEntry } from './outbox-records';
import type { InvalidRow, OutboxRead, OutboxRow } from './outbox-records';

/**
 * Reads the whole outbox once and parses every row: the valid entries in creation order and
 * the rows that fail. Writes nothing, so it runs inside Dexie's `liveQuery` too.
 */
export async function readOutbox(db: ProfileDb): Promise<OutboxRead> {
  const rows: unknown[] = await db.outbox.toArray();
  const valid: OutboxRow[] = [];
  const invalid: InvalidRow[] = [];
  for (const raw of rows) {
    const parsed = OutboxRowSchema.safeParse(raw);
    if (parsed.success) valid.push(parsed.data);
    else invalid.push({ key: keyOf(raw), raw, reason: describeIssues(parsed.error.issues) });
  }
  return { entries: valid.sort((a, b) => a.seq - b.seq).map(toEntry), invalid };
}

/**
 * Moves rows that fail the schema from the outbox to the quarantine table, where staff see
 * them and can copy their data. A row rewritten meanwhile (and now valid) stays.
 */
export async function setAsideRows(
  db: ProfileDb,
  invalid: readonly InvalidRow[],
  clock: Pick<Clock, 'now'>,
): Promise<void> {
  if (invalid.length === 0) return;
  await db.transaction('rw', db.outbox, db.quarantine, async () => {
    for (const { key } of invalid) {
      // Typed by string keys, the table may still hold a row whose key is another type.
      const raw: unknown = await db.outbox.get(key as string);
      const parsed = OutboxRowSchema.safeParse(raw);
      if (raw === undefined || parsed.success) continue;
      const row: QuarantinedRow = {
        id: `outbox:${String(key)}`,
        table: 'outbox',
        raw,
        reason: describeIssues(parsed.error.issues),
        at: clock.now(),
      };
      await db.quarantine.put(row);
      await db.outbox.delete(key as string);
    }
  });
}
