/**
 * One animal by id: instant from the cache (live), refreshed from the service when it is
 * reachable. When the deprecated single-animal call is `gone`, the listed data is used.
 */
import { liveQuery, type Subscription } from 'dexie';
import { LIMIT_MAX } from '../shared/records/animal';
import type { AdoptionApi } from '../shared/app-api/client';
import { type AppError, UNREACHABLE_CODES } from '../shared/app-api/result';
import type { AnimalCache, CachedAnimal, ProfileDb } from '../storage';

export type DetailRefresh = 'idle' | 'refreshing' | 'confirmed' | 'gone' | 'not_found' | 'offline' | 'error';

export class AnimalDetailStore {
  cached = $state<CachedAnimal | null>(null);
  /** The cache has been read at least once. */
  cacheRead = $state(false);
  refresh = $state<DetailRefresh>('idle');
  error = $state<AppError | null>(null);
  /** The Sunset date the service announced for the single-animal call, if any. */
  sunset = $state<string | null>(null);
  #subscription: Subscription | null = null;

  constructor(
    private readonly api: AdoptionApi,
    readonly profileId: string,
    readonly id: string,
    private readonly db: ProfileDb,
    private readonly cache: AnimalCache,
  ) {}

  start(): void {
    this.#subscription ??= liveQuery(() => this.db.animals.get(this.id)).subscribe({
      next: (row) => {
        this.cached = row ?? null;
        this.cacheRead = true;
      },
      error: () => {
        this.cacheRead = true;
      },
    });
    void this.load();
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
  }

  async load(): Promise<void> {
    this.refresh = 'refreshing';
    const result = await this.api.getPet({ profileId: this.profileId, id: this.id });
    if (result.ok) {
      await this.cache.saveAnimal(result.data.animal, result.data.fetchedAt);
      this.sunset = result.data.deprecation.sunset;
      this.error = null;
      this.refresh = 'confirmed';
      return;
    }
    this.error = result.error;
    if (result.error.code === 'gone') return this.#fromList();
    if (result.error.code === 'not_found') this.refresh = 'not_found';
    else if (UNREACHABLE_CODES.has(result.error.code)) this.refresh = 'offline';
    else this.refresh = 'error';
  }

  /** The single-animal call is gone: look the animal up in the widest list instead. */
  async #fromList(): Promise<void> {
    this.refresh = 'gone';
    const query = { limit: LIMIT_MAX };
    const result = await this.api.listPets({ profileId: this.profileId, query });
    if (!result.ok) return;
    await this.cache.saveList(query, result.data.animals, result.data.fetchedAt);
  }
}
