/** The animals and the id counter, in memory. Persistence (persistence.ts) saves snapshots of it. */
import type { AnimalStatus } from '../../src/shared/records/animal';

export interface StoredAnimal {
  id: string;
  name: string;
  categoryId: string;
  status: AnimalStatus;
}

export interface NewAnimal {
  name: string;
  categoryId: string;
  status: AnimalStatus;
}

const INT64_MAX = 2n ** 63n - 1n;

export class IdSpaceExhaustedError extends Error {}

export class AnimalStore {
  private readonly animals: StoredAnimal[];
  private readonly byId = new Map<string, StoredAnimal>();
  private next: bigint;

  constructor(animals: readonly StoredAnimal[], nextId: string) {
    this.animals = animals.map((animal) => ({ ...animal }));
    for (const animal of this.animals) this.byId.set(animal.id, animal);
    this.next = BigInt(nextId);
  }

  /** Adds an animal with the next id (ids only go upwards). */
  create(animal: NewAnimal): StoredAnimal {
    if (this.next > INT64_MAX) throw new IdSpaceExhaustedError('no int64 ids left');
    const stored = {
      id: this.next.toString(),
      name: animal.name,
      categoryId: animal.categoryId,
      status: animal.status,
    };
    this.next += 1n;
    this.animals.push(stored);
    this.byId.set(stored.id, stored);
    return { ...stored };
  }

  get(id: string): StoredAnimal | undefined {
    const found = this.byId.get(id);
    return found && { ...found };
  }

  /** Newest first, at most `limit`, optionally only one status. */
  list(limit: number, status?: AnimalStatus): StoredAnimal[] {
    const page: StoredAnimal[] = [];
    for (let i = this.animals.length - 1; i >= 0 && page.length < limit; i -= 1) {
      const animal = this.animals[i];
      if (animal && (status === undefined || animal.status === status)) page.push({ ...animal });
    }
    return page;
  }

  get size(): number {
    return this.animals.length;
  }

  get nextId(): string {
    return this.next.toString();
  }

  all(): StoredAnimal[] {
    return this.animals.map((animal) => ({ ...animal }));
  }
}
