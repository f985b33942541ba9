/**
 * The animal cache of one profile: animals by id and list results by query, so the last
 * known lists show at start before any network answer. An older answer never overwrites
 * a newer one (two list requests may come back out of order).
 */
import type { Animal, AnimalStatus } from '../shared/records/animal';
import { trimCacheWhenDue } from './cache-trim';
import { type CachedAnimal, type ProfileDb, queryKey } from './db';

export interface CacheQuery {
  status?: AnimalStatus | null;
  limit: number;
}

export class AnimalCache {
  constructor(private readonly db: ProfileDb) {}

  /**
   * Upserts the animals (confirmedAt = fetchedAt) and the query's ordered ids; then, at most
   * once an hour, trims the cache by its rule (cache-trim.ts), with the answer's time as now.
   */
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
    try {
      await trimCacheWhenDue(db, fetchedAt);
    } catch {
      // The answer is saved; a trim that failed (storage trouble the next write will report)
      // only leaves old animals a little longer, and is tried again at the next answer.
    }
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

  /**
   * The animals with the first names (IndexedDB's code-unit order, by the `animal.name`
   * index): the first `count`, plus every other animal sharing the last of those names, so
   * ties can be ordered by id (at most `max` in all). Cheap whatever the size of the cache.
   * One read usually: it reads `count` + `spare` rows and reads again only when the ties of
   * the last name go past them.
   */
  async firstByName(count: number, max: number, spare = 40): Promise<CachedAnimal[]> {
    const ahead = Math.max(count, Math.min(max, count + spare));
    const head = await this.db.animals.orderBy('animal.name').limit(ahead).toArray();
    const last = head[count - 1]?.animal.name;
    if (last === undefined) return head;
    if (head.length < ahead || head[ahead - 1]!.animal.name !== last) {
      return head.filter((row) => row.animal.name <= last);
    }
    return this.db.animals.where('animal.name').belowOrEqual(last).limit(max).toArray();
  }

  /**
   * Every cached animal, `size` at a time (by id, in one read transaction so the chunks are a
   * consistent snapshot). `onChunk` runs in its own task for each chunk, so the main thread is
   * free between chunks; it returns false to stop early.
   */
  async readInChunks(size: number, onChunk: (rows: CachedAnimal[]) => boolean): Promise<void> {
    const db = this.db;
    await db.transaction('r', db.animals, async () => {
      let after: string | null = null;
      for (;;) {
        const rows: CachedAnimal[] = await (
          after === null ? db.animals.orderBy(':id') : db.animals.where(':id').above(after)
        )
          .limit(size)
          .toArray();
        if (rows.length === 0 || !onChunk(rows) || rows.length < size) return;
        after = rows[rows.length - 1]!.id;
      }
    });
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
