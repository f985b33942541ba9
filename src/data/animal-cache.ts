/**
 * The animal cache of one profile: animals by id and list results by query, so the last
 * known lists show at start before any network answer. An older answer never overwrites
 * a newer one (two list requests may come back out of order).
 */
import type { Animal, PetStatus } from '../shared/animal';
import { queryKey, type CachedAnimal, type ProfileDb } from './db';

export interface CacheQuery {
  status?: PetStatus | null;
  limit: number;
}

export class AnimalCache {
  constructor(private readonly db: ProfileDb) {}

  /** Upserts the animals (confirmedAt = fetchedAt) and the query's ordered ids. */
  async saveList(query: CacheQuery, animals: Animal[], fetchedAt: number): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.animals, db.queries, async () => {
      await this.upsert(animals, fetchedAt);
      const key = queryKey(query);
      const existing = await db.queries.get(key);
      if (existing && existing.fetchedAt > fetchedAt) return;
      await db.queries.put({
        key,
        status: query.status ?? null,
        limit: query.limit,
        ids: animals.map((animal) => animal.id),
        fetchedAt,
      });
    });
  }

  /**
   * The cached result of a query, in the service's order, or null when it was never
   * fetched. With a status filter, an animal since seen with another status is left out.
   */
  async readList(query: CacheQuery): Promise<{ animals: CachedAnimal[]; fetchedAt: number } | null> {
    const db = this.db;
    return db.transaction('r', db.animals, db.queries, async () => {
      const cached = await db.queries.get(queryKey(query));
      if (!cached) return null;
      const rows = await db.animals.bulkGet(cached.ids);
      const animals = rows.filter(
        (row): row is CachedAnimal => row !== undefined && (!query.status || row.animal.status === query.status),
      );
      return { animals, fetchedAt: cached.fetchedAt };
    });
  }

  async saveAnimal(animal: Animal, confirmedAt: number): Promise<void> {
    const db = this.db;
    await db.transaction('rw', db.animals, () => this.upsert([animal], confirmedAt));
  }

  async read(id: string): Promise<CachedAnimal | null> {
    return (await this.db.animals.get(id)) ?? null;
  }

  /** Every cached animal of the profile, by id. */
  async all(): Promise<CachedAnimal[]> {
    return this.db.animals.toArray();
  }

  async count(): Promise<number> {
    return this.db.animals.count();
  }

  private async upsert(animals: Animal[], confirmedAt: number): Promise<void> {
    const existing = await this.db.animals.bulkGet(animals.map((animal) => animal.id));
    const rows: CachedAnimal[] = [];
    animals.forEach((animal, index) => {
      const old = existing[index];
      if (old && old.confirmedAt > confirmedAt) return;
      rows.push({
        id: animal.id,
        animal,
        confirmedAt,
        firstSeenAt: old?.firstSeenAt ?? old?.confirmedAt ?? confirmedAt,
      });
    });
    await this.db.animals.bulkPut(rows);
  }
}
