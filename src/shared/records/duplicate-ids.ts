/**
 * One record per id. A list answer may repeat an id (a buggy or migrating service can), and
 * rows are keyed by id, so the app keeps one record per id: the last record of an id wins, in
 * the place where that id first appeared. The core notes the repeated ids in Diagnostics; the
 * renderer collapses them before anything is cached or shown.
 */

/** The ids that appear more than once, in the order they first appeared. */
export function duplicatedIds<T>(records: readonly T[], idOf: (record: T) => string): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const record of records) {
    const id = idOf(record);
    if (seen.has(id)) repeated.add(id);
    else seen.add(id);
  }
  return [...repeated];
}

/** The records with one per id (the last wins, at the first place); the input itself when no id repeats. */
export function collapseDuplicateIds<T>(records: T[], idOf: (record: T) => string): T[] {
  const byId = new Map<string, T>();
  for (const record of records) byId.set(idOf(record), record);
  return byId.size === records.length ? records : [...byId.values()];
}
