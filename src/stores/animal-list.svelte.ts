/**
 * The animal list of one profile: the service's answer to the current query (status,
 * limit), shown from the cache first and refreshed from the service; offline, the cached
 * answer stays fully usable. Quick search and sort work over what is loaded.
 */
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, PET_STATUSES, type PetStatus } from '../shared/animal';
import type { AdoptionApi } from '../shared/client';
import { collapseDuplicateIds } from '../shared/duplicate-ids';
import type { AppError } from '../shared/result';
import type { AnimalCache } from '../data/animal-cache';
import type { CachedAnimal } from '../data/db';
import { searchAndSort, type SortKey } from './animal-sorting';

export type StatusFilter = PetStatus | 'all';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', ...PET_STATUSES];

export type ListState = 'idle' | 'loading' | 'loaded' | 'error';

export class AnimalListStore {
  status = $state<StatusFilter>('all');
  limitText = $state(String(LIMIT_DEFAULT));
  search = $state('');
  sort = $state<SortKey>('service');
  rows = $state.raw<CachedAnimal[]>([]);
  state = $state<ListState>('idle');
  /** When the rows shown were fetched from the service, null when never. */
  fetchedAt = $state<number | null>(null);
  /** The rows come from the cache because the service could not be reached. */
  offline = $state(false);
  error = $state<AppError | null>(null);
  /** Offline and this query was never fetched: the rows are the saved animals that match it. */
  fromSaved = $state(false);
  /** The service has not answered the current query yet (the core may be holding it back). */
  waiting = $state(false);
  /** Said when Refresh was pressed while the list was already waiting for the service. */
  refreshNote = $state<string | null>(null);
  readonly limitError: string | null = $derived.by(() => {
    const text = this.limitText.trim();
    if (!/^\d+$/.test(text)) return `Limit must be a whole number from ${LIMIT_MIN} to ${LIMIT_MAX}.`;
    const value = Number(text);
    return value < LIMIT_MIN || value > LIMIT_MAX ? `Limit must be from ${LIMIT_MIN} to ${LIMIT_MAX}.` : null;
  });
  readonly visible: CachedAnimal[] = $derived(searchAndSort(this.rows, this.search, this.sort));
  #request = 0;

  constructor(
    private readonly api: AdoptionApi,
    readonly profileId: string,
    private readonly cache: AnimalCache,
    private readonly onReachability: (error: AppError | null) => void = () => {},
  ) {}

  get limit(): number {
    return this.limitError ? LIMIT_DEFAULT : Number(this.limitText.trim());
  }

  setStatus(status: StatusFilter): Promise<void> {
    this.status = status;
    return this.load();
  }

  setLimit(text: string): Promise<void> {
    this.limitText = text;
    return this.limitError ? Promise.resolve() : this.load();
  }

  /**
   * Refresh: asks the service again, unless the list is still waiting for its answer to this
   * query (the core would only share that same read): then it says so and sends nothing.
   */
  refresh(): Promise<void> {
    if (this.waiting) {
      this.refreshNote = 'Already waiting for the service: the list updates as soon as it answers.';
      return Promise.resolve();
    }
    return this.load();
  }

  /** Shows the cached answer at once, then asks the service. A stale answer is dropped. */
  async load(): Promise<void> {
    const request = ++this.#request;
    const query = { limit: this.limit, ...(this.status === 'all' ? {} : { status: this.status }) };
    this.state = 'loading';
    this.waiting = true;
    const cached = await this.cache.readList(query);
    if (request !== this.#request) return;
    this.rows = collapseDuplicateIds(cached?.animals ?? [], (row) => row.id);
    this.fetchedAt = cached?.fetchedAt ?? null;
    this.fromSaved = false;
    // `view`: a newer query of this screen drops this read in the core if it was not sent yet
    const result = await this.api.listPets({ profileId: this.profileId, query, view: 'animal-list' });
    if (request !== this.#request) return;
    this.waiting = false;
    this.refreshNote = null;
    this.onReachability(result.ok ? null : result.error);
    if (result.ok) {
      // An answer may repeat an id (the core notes it in Diagnostics): one row per id, the last record wins.
      const animals = collapseDuplicateIds(result.data.animals, (animal) => animal.id);
      await this.cache.saveList(query, animals, result.data.fetchedAt);
      if (request !== this.#request) return;
      this.rows = animals.map((animal) => ({ id: animal.id, animal, confirmedAt: result.data.fetchedAt }));
      this.fetchedAt = result.data.fetchedAt;
      this.offline = false;
      this.error = null;
      this.state = 'loaded';
      return;
    }
    this.error = result.error;
    this.offline = result.error.code === 'offline' || result.error.code === 'timeout';
    this.fromSaved = false;
    if (!cached && this.offline) await this.#fromSaved(request, query);
    if (request !== this.#request) return;
    this.state = cached || this.fromSaved ? 'loaded' : 'error';
  }

  /** Never fetched and offline: answer the query from every animal saved on this device. */
  async #fromSaved(request: number, query: { limit: number; status?: PetStatus }): Promise<void> {
    const all = await this.cache.all();
    if (request !== this.#request || all.length === 0) return;
    const matching = all
      .filter((row) => !query.status || row.animal.status === query.status)
      .sort((a, b) => b.confirmedAt - a.confirmedAt)
      .slice(0, query.limit);
    this.rows = matching;
    this.fetchedAt = all.reduce((max, row) => Math.max(max, row.confirmedAt), 0);
    this.fromSaved = true;
  }
}
