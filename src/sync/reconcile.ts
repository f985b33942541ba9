/**
 * What the app can know about an entry whose last send may have reached the service without
 * an answer (a dropped connection, a timeout, a 500, the app closed mid-send). The service
 * may have stored it, and the interface does not promise that it honours `Idempotency-Key`.
 *
 * Certain, so the engine acts alone:
 * - The service has shown that it keeps idempotency keys (see idempotency-evidence.ts) and
 *   the doubt is recent: sending again with the same key cannot create a second animal.
 * - Every list that could hold the animal came back complete (fewer than 100) and none holds
 *   a match: it was not stored, so it is sent again (same key).
 * Never certain, so staff are asked ("check needed"):
 * - A matching animal (same name and category, and status when the entry has one) that the
 *   app cannot rule out. Several devices share a key at an event: it may be another
 *   device's, and adopting it would lose this one without a word.
 * - A list came back full: a match may hide beyond the 100 the service returned (the
 *   interface gives no order and no other paging).
 * Ruled out: animals this device saw before the entry was created, other entries' records,
 * and animals staff already said are not this entry.
 */
import type { Animal, AnimalStatus, NewAnimal } from '../shared/records/animal';
import type { AdoptionApi } from '../shared/app-api/client';
import { compareInt64 } from '../shared/records/int64';
import { ok, type Result } from '../shared/app-api/result';
import type { CachedAnimal, OutboxEntry } from '../storage';

/** The most the interface lets one list return. */
export const RECONCILE_LIMIT = 100;
/** At most this many candidates are shown to staff (newest ids first). */
export const MAX_CANDIDATES = 5;
const STATUSES: AnimalStatus[] = ['available', 'pending', 'sold'];

export type Lookup =
  /** Every list that could hold it is complete and none does: it was not stored. */
  | { kind: 'not_stored' }
  /** Staff must decide: `candidates` may be someone else's; `complete` false when a list was full. */
  | { kind: 'check'; candidates: Animal[]; complete: boolean };

/** Ids that cannot be the entry's record. */
export function knownIdsFor(entry: OutboxEntry, cached: CachedAnimal[], outbox: OutboxEntry[]): Set<string> {
  const known = new Set<string>(entry.notOurs);
  for (const row of cached) if ((row.firstSeenAt ?? row.confirmedAt) <= entry.createdAt) known.add(row.id);
  for (const other of outbox) if (other.localId !== entry.localId && other.serverId) known.add(other.serverId);
  return known;
}

export function matchesAnimal(animal: Animal, entered: NewAnimal): boolean {
  return (
    animal.name.trim() === entered.name.trim() &&
    animal.categoryId === entered.categoryId &&
    (entered.status === undefined || animal.status === entered.status)
  );
}

/**
 * The lists that could hold the entry's animal, each of up to 100. With a status, the animal
 * was stored with it: that status's list. Without one, the service chose (the interface does
 * not say what): every status, and the unfiltered list for an animal stored with none. The
 * unfiltered list of a service with more than 100 animals is always full, so its fullness is
 * not counted: an animal stored without any status beyond its first 100 is missed, and the
 * entry is sent again (a possible duplicate, never a loss).
 */
function listsFor(entered: NewAnimal): Array<{ status: AnimalStatus | null; counts: boolean }> {
  if (entered.status) return [{ status: entered.status, counts: true }];
  return [...STATUSES.map((status) => ({ status, counts: true })), { status: null, counts: false }];
}

/** Looks for the entry's animal on the service; errors as values. */
export async function lookForEntry(
  api: Pick<AdoptionApi, 'listPets'>,
  profileId: string,
  entered: NewAnimal,
  knownIds: ReadonlySet<string>,
): Promise<Result<Lookup>> {
  const found = new Map<string, Animal>();
  let complete = true;
  for (const { status, counts } of listsFor(entered)) {
    const query = status ? { limit: RECONCILE_LIMIT, status } : { limit: RECONCILE_LIMIT };
    const listed = await api.listPets({ profileId, query });
    if (!listed.ok) return listed;
    if (counts && listed.data.animals.length >= RECONCILE_LIMIT) complete = false;
    for (const animal of listed.data.animals) {
      if (matchesAnimal(animal, entered) && !knownIds.has(animal.id)) found.set(animal.id, animal);
    }
  }
  const candidates = [...found.values()].sort((a, b) => compareInt64(b.id, a.id)).slice(0, MAX_CANDIDATES);
  return ok(candidates.length === 0 && complete ? { kind: 'not_stored' } : { kind: 'check', candidates, complete });
}
