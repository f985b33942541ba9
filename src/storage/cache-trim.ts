/**
 * The one rule that keeps a profile's animal cache from growing without end (issue 24). Every
 * list answer upserts its animals and nothing else removes them, so a desk open every day for
 * years would keep every animal it was ever shown. This module alone removes cached animals
 * and cached list results; nothing else in the app does (docs/architecture.md).
 *
 * The rule, run at most once an hour per open database, when a list answer is saved, with the
 * answer's time as "now" (the core's clock, the same clock as `confirmedAt` and `fetchedAt`):
 * 1. Nothing at all is trimmed while the outbox holds an entry the service has not confirmed
 *    (any state but `sent`, or a row that cannot be read): reconciliation tells the animals this
 *    device already knew from one its doubtful send created by what the cache holds, and a send's
 *    replay by the cache too. It runs again at the next answer.
 * 2. A cached list result fetched more than MAX_AGE ago is dropped (it is no longer shown offline
 *    as "what was saved at …": so old a list would mislead more than help).
 * 3. Kept, whatever their age: the animals of every list result still cached (so a cached list is
 *    never shown with holes), and the records of the entries sent from this device that the
 *    outbox still keeps (the list shows them in place of their queued rows).
 * 4. Any other animal the service has not returned for MAX_AGE (`confirmedAt`) is dropped.
 * 5. If more than MAX_ANIMALS remain, the other animals least recently returned are dropped
 *    until MAX_ANIMALS remain (the kept ones of 3 count, and are never dropped). The cap is well
 *    above the 10,000 animals "Saved on this device" is built and measured for.
 * Entries of the outbox, rows set aside and category names are never touched: only `animals`
 * and `queries` are written here.
 */
import type { ProfileDb } from './db';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export interface CacheTrimRule {
  /** An animal or list result not returned by the service for this long may go. */
  maxAgeMs: number;
  /** At most this many cached animals, apart from those kept by rule 3. */
  maxAnimals: number;
  /** At most one trim per this long per open database. */
  everyMs: number;
}

export const CACHE_TRIM_RULE: CacheTrimRule = { maxAgeMs: 30 * DAY_MS, maxAnimals: 25_000, everyMs: HOUR_MS };

export interface TrimOutcome {
  /** Why nothing was trimmed, or null when the rule ran. */
  skipped: 'unconfirmed_entries' | null;
  queries: number;
  animals: number;
}

/** Applies the rule now, in one transaction (so no entry can be added between the check and the deletes). */
export async function trimCache(
  db: ProfileDb,
  now: number,
  rule: CacheTrimRule = CACHE_TRIM_RULE,
): Promise<TrimOutcome> {
  return db.transaction('rw', db.animals, db.queries, db.outbox, async () => {
    // Raw rows, not parsed: a row that cannot be read counts as not confirmed.
    const outbox = (await db.outbox.toArray()) as Array<{ state?: unknown; serverId?: unknown }>;
    if (outbox.some((row) => row.state !== 'sent')) return { skipped: 'unconfirmed_entries', queries: 0, animals: 0 };

    const cutoff = now - rule.maxAgeMs;
    const queries = await db.queries.toArray();
    const oldQueries = queries.filter((query) => query.fetchedAt < cutoff);
    await db.queries.bulkDelete(oldQueries.map((query) => query.key));

    const kept = new Set<string>();
    for (const query of queries) if (query.fetchedAt >= cutoff) for (const id of query.ids) kept.add(id);
    for (const row of outbox) if (typeof row.serverId === 'string') kept.add(row.serverId);

    const old = (await db.animals.where('confirmedAt').below(cutoff).primaryKeys()).filter((id) => !kept.has(id));
    await db.animals.bulkDelete(old);

    let overCap: string[] = [];
    const excess = (await db.animals.count()) - rule.maxAnimals;
    if (excess > 0) {
      const oldestFirst = await db.animals.orderBy('confirmedAt').primaryKeys();
      overCap = oldestFirst.filter((id) => !kept.has(id)).slice(0, excess);
      await db.animals.bulkDelete(overCap);
    }
    return { skipped: null, queries: oldQueries.length, animals: old.length + overCap.length };
  });
}

/** When each open database was last trimmed (by the answer's time); kept per window. */
const lastTrim = new WeakMap<ProfileDb, number>();

/**
 * Trims when an hour has passed since this window last did (or never did): called with the time
 * of each list answer saved. A skipped trim is tried again at the next answer.
 */
export async function trimCacheWhenDue(
  db: ProfileDb,
  now: number,
  rule: CacheTrimRule = CACHE_TRIM_RULE,
): Promise<TrimOutcome | null> {
  const last = lastTrim.get(db);
  if (last !== undefined && now - last < rule.everyMs && now >= last) return null;
  const outcome = await trimCache(db, now, rule);
  if (outcome.skipped === null) lastTrim.set(db, now);
  return outcome;
}
