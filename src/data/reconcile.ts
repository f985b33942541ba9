/**
 * Reconciliation of an entry whose last send has an unknown outcome: the service may have
 * stored the animal without the app hearing back, and may not honour `Idempotency-Key`.
 * Before sending again, the engine looks in a fresh list for an animal that matches the
 * entry and that the app did not know before; if there is one, that is the entry's record.
 */
import { compareInt64 } from '../shared/int64';
import type { Animal, NewPet } from '../shared/animal';
import type { AdoptionApi } from '../shared/client';
import type { Result } from '../shared/result';
import type { CachedAnimal, OutboxEntry } from './db';

export const RECONCILE_LIMIT = 100;

/**
 * Ids that cannot be the entry's record: animals the app saw no later than the entry was
 * created, and the server ids of the other outbox entries.
 */
export function knownIdsFor(entry: OutboxEntry, cached: CachedAnimal[], outbox: OutboxEntry[]): Set<string> {
  const known = new Set<string>();
  for (const row of cached) if ((row.firstSeenAt ?? row.confirmedAt) <= entry.createdAt) known.add(row.id);
  for (const other of outbox) if (other.localId !== entry.localId && other.serverId) known.add(other.serverId);
  return known;
}

export function matchesPet(animal: Animal, pet: NewPet): boolean {
  return (
    animal.name.trim() === pet.name.trim() &&
    animal.categoryId === pet.categoryId &&
    (pet.status === undefined || animal.status === pet.status)
  );
}

/** The newest listed animal matching the pet and not known before, or null; errors as values. */
export async function findCreatedAnimal(
  api: Pick<AdoptionApi, 'listPets'>,
  profileId: string,
  pet: NewPet,
  knownIds: ReadonlySet<string>,
): Promise<Result<Animal | null>> {
  const query = pet.status ? { limit: RECONCILE_LIMIT, status: pet.status } : { limit: RECONCILE_LIMIT };
  const listed = await api.listPets({ profileId, query });
  if (!listed.ok) return listed;
  const candidates = listed.data.animals.filter((animal) => matchesPet(animal, pet) && !knownIds.has(animal.id));
  candidates.sort((a, b) => compareInt64(b.id, a.id));
  return { ok: true, data: candidates[0] ?? null };
}
