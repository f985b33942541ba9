/**
 * The animal list of one profile: the service's answer to the current query (status,
 * limit), shown from the cache first and refreshed from the service; offline, the cached
 * answer stays fully usable. Quick search and sort work over what is loaded.
 *
 * The rows shown are the outbox and the cache joined: the entries not sent yet (queued,
 * sending, check needed) as rows of their own, then the animals this device sent (the entry
 * is `sent`, its record in the cache) with their service ids, until an answer lists them,
 * then the service's rows; the status filter and the search apply to all three.
 * Whether the service is reachable is not kept here (ConnectivityStore has it); the list only
 * knows where its rows came from and what its last request answered, and loads again when
 * told that the service answers again, that a key was saved, or that a batch was sent.
 */
import { ANIMAL_STATUSES, type AnimalStatus, LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN } from '../shared/records/animal';
import type { AdoptionApi } from '../shared/app-api/client';
import { t } from '../language';
import { collapseDuplicateIds } from '../shared/records/duplicate-ids';
import { type AppError, UNREACHABLE_CODES } from '../shared/app-api/result';
import type { AnimalCache, CachedAnimal, OutboxEntry } from '../storage';
import { searchAndSort, searchKey, type SortKey } from './animal-sorting';

export type StatusFilter = AnimalStatus | 'all';
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', ...ANIMAL_STATUSES];

export type ListState = 'idle' | 'loading' | 'loaded' | 'error';
/**
 * Where the rows of the current query come from: the service's answer, the cached answer to this
 * query, every cached animal matching it (this query was never answered), or nowhere yet.
 */
export type ListSource = 'service' | 'cached_list' | 'cached_animals' | 'none';

/** What the list needs of the outbox (QueueStore): the unsent entries shown as rows, and the sent animals. */
export interface ListOutbox {
  readonly listed: OutboxEntry[];
  readonly sentAnimals: CachedAnimal[];
}

const NO_OUTBOX: ListOutbox = { listed: [], sentAnimals: [] };
const KEY_CODES = new Set(['no_key', 'unauthorized']);

export class AnimalListStore {
  status = $state<StatusFilter>('all');
  limitText = $state(String(LIMIT_DEFAULT));
  search = $state('');
  sort = $state<SortKey>('service');
  rows = $state.raw<CachedAnimal[]>([]);
  state = $state<ListState>('idle');
  source = $state<ListSource>('none');
  /** When the rows shown were fetched from the service, null when never. */
  fetchedAt = $state<number | null>(null);
  /** What the last finished request failed with; cleared when the next one starts. */
  error = $state<AppError | null>(null);
  /** The service has not answered the current query yet (the core may be holding it back). */
  waiting = $state(false);
  /** Refresh was pressed while the list was already waiting for the service (`refreshNote` says so). */
  #refreshNoted = $state(false);
  readonly limitError: string | null = $derived.by(() => {
    const text = this.limitText.trim();
    const range = { min: LIMIT_MIN, max: LIMIT_MAX };
    if (!/^\d+$/.test(text)) return t('list.limitNotWhole', range);
    const value = Number(text);
    return value < LIMIT_MIN || value > LIMIT_MAX ? t('list.limitOutOfRange', range) : null;
  });
  /** Entries not sent yet that match the filter and the search, in the order they were entered. */
  readonly queued: OutboxEntry[] = $derived.by(() => {
    const needle = searchKey(this.search.trim());
    return this.outbox.listed.filter(
      (entry) =>
        (this.status === 'all' || entry.animal.status === this.status) &&
        (!needle || searchKey(entry.animal.name).includes(needle)),
    );
  });
  /** Animals this device sent that the rows do not hold yet, in the order they were entered. */
  readonly sentNotListed: CachedAnimal[] = $derived.by(() => {
    // A local lookup inside the derivation, not state.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const listed = new Set(this.rows.map((row) => row.id));
    return this.outbox.sentAnimals.filter(
      (row) => !listed.has(row.id) && (this.status === 'all' || row.animal.status === this.status),
    );
  });
  /**
   * The rows that match the status filter. The rows answer the query they were read for; when the
   * filter changes they stay until the new query's own rows are read (from the cache, then the
   * service), and meanwhile a row of another status is never shown under the new filter.
   */
  readonly matching: CachedAnimal[] = $derived(
    this.status === 'all' ? this.rows : this.rows.filter((row) => row.animal.status === this.status),
  );
  readonly visible: CachedAnimal[] = $derived(
    searchAndSort([...this.sentNotListed, ...this.matching], this.search, this.sort),
  );
  /** The last request failed because of the key (none saved, or refused). */
  readonly keyProblem: boolean = $derived(this.error !== null && KEY_CODES.has(this.error.code));
  #request = 0;
  /** Asked to load again while a load was running: once more if that one fails. */
  #again = false;
  /** The query the rows answer (status and limit), null before any. */
  #rowsQuery: string | null = null;

  constructor(
    private readonly api: AdoptionApi,
    readonly profileId: string,
    private readonly cache: AnimalCache,
    private readonly outbox: ListOutbox = NO_OUTBOX,
  ) {}

  /** Said when Refresh was pressed while the list was already waiting for the service. */
  get refreshNote(): string | null {
    return this.#refreshNoted ? t('list.alreadyWaiting') : null;
  }

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
      this.#refreshNoted = true;
      return Promise.resolve();
    }
    return this.load();
  }

  /**
   * Something changed that may make the service answer now (it answers again, a key was
   * saved): loads again when the rows shown are not the service's last answer. Before the
   * screen asked for the list once, nothing is loaded.
   */
  refreshIfStale(): Promise<void> {
    if (this.state === 'idle') return Promise.resolve();
    if (this.waiting) {
      this.#again = true;
      return Promise.resolve();
    }
    return this.error ? this.load() : Promise.resolve();
  }

  /** Animals were sent: the service's order and statuses are worth a fresh look, once loaded. */
  refreshAfterSend(): Promise<void> {
    if (this.state === 'idle') return Promise.resolve();
    if (this.waiting) {
      this.#again = true;
      return Promise.resolve();
    }
    return this.load();
  }

  /** Shows the cached answer at once, then asks the service. A stale answer is dropped. */
  async load(): Promise<void> {
    const request = ++this.#request;
    const query = { limit: this.limit, ...(this.status === 'all' ? {} : { status: this.status }) };
    const asked = JSON.stringify(query);
    if (this.#rowsQuery !== null && this.#rowsQuery !== asked) {
      // The rows answer another query: until this one's own rows are read, only those that fit it
      // stay, and nothing says they are this query's answer or when it was fetched.
      this.rows = this.matching.slice(0, query.limit);
      this.source = 'none';
      this.fetchedAt = null;
    }
    this.#rowsQuery = asked;
    this.state = 'loading';
    this.waiting = true;
    this.#again = false;
    this.error = null;
    await this.#load(request, query);
    if (request === this.#request && this.#again && this.error) void this.load();
  }

  async #load(request: number, query: { limit: number; status?: AnimalStatus }): Promise<void> {
    // The saved answer is a help, not a gate: a database that cannot be read (closing, damaged:
    // the storage notice says so) is as if nothing were saved, and the service is still asked.
    const cached = await this.cache.readList(query).catch(() => null);
    if (request !== this.#request) return;
    // Nothing saved for this query: the rows shown stay until the service answers (those that fit
    // a new filter, or this query's last answer), never an empty list between them and its answer.
    if (cached) {
      this.rows = collapseDuplicateIds(cached.animals, (row) => row.id);
      this.fetchedAt = cached.fetchedAt;
      this.source = 'cached_list';
    }
    // `view`: a newer query of this screen drops this read in the core if it was not sent yet
    const result = await this.api.listPets({ profileId: this.profileId, query, view: 'animal-list' });
    if (request !== this.#request) return;
    this.waiting = false;
    this.#refreshNoted = false;
    if (result.ok) {
      // An answer may repeat an id (the core notes it in Diagnostics): one row per id, the last record wins.
      const animals = collapseDuplicateIds(result.data.animals, (animal) => animal.id);
      // Not saved: it is still the service's answer, shown as such (the next load asks again).
      await this.cache.saveList(query, animals, result.data.fetchedAt).catch(() => undefined);
      if (request !== this.#request) return;
      this.rows = animals.map((animal) => ({ id: animal.id, animal, confirmedAt: result.data.fetchedAt }));
      this.fetchedAt = result.data.fetchedAt;
      this.source = 'service';
      this.state = 'loaded';
      return;
    }
    if (!cached && UNREACHABLE_CODES.has(result.error.code)) await this.#fromCachedAnimals(request, query);
    if (request !== this.#request) return;
    // No answer to this query at all: the rows kept from another query's answer go.
    if (this.source === 'none') this.rows = [];
    this.error = result.error;
    this.state = this.source === 'none' ? 'error' : 'loaded';
  }

  /** Never fetched and unreachable: answer the query from every cached animal ("Saved on this device"). */
  async #fromCachedAnimals(request: number, query: { limit: number; status?: AnimalStatus }): Promise<void> {
    const all = await this.cache.all().catch(() => []);
    if (request !== this.#request || all.length === 0) return;
    const matching = all
      .filter((row) => !query.status || row.animal.status === query.status)
      .sort((a, b) => b.confirmedAt - a.confirmedAt)
      .slice(0, query.limit);
    this.rows = matching;
    this.fetchedAt = all.reduce((max, row) => Math.max(max, row.confirmedAt), 0);
    this.source = 'cached_animals';
  }
}
