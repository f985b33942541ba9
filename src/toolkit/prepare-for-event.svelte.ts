/**
 * "Prepare for the event": one action that fills the profile's cache with every status (and
 * the unfiltered list) at the largest page, then says how many animals are available offline.
 */
import { t } from '../language';
import { ANIMAL_STATUSES, type AnimalStatus, LIMIT_MAX } from '../shared/records/animal';
import type { AdoptionApi } from '../shared/app-api/client';
import { type Err, ok, type Result } from '../shared/app-api/result';
import type { AnimalCache } from '../storage';

/** The lists fetched, in order: all, then each status. */
export const EVENT_QUERIES: ReadonlyArray<{ limit: number; status?: AnimalStatus }> = [
  { limit: LIMIT_MAX },
  ...ANIMAL_STATUSES.map((status) => ({ limit: LIMIT_MAX, status })),
];

/** Codes after which the remaining lists are not asked for (they would fail the same way). */
const STOP_CODES: ReadonlySet<string> = new Set(['unauthorized', 'no_key', 'not_configured', 'banned']);

/**
 * Fetches the lists one after another (the core paces them) and saves each into the cache.
 * Succeeds only when every list came; on failure the lists that did come stay cached, and
 * the error message says how many animals are available offline anyway.
 */
export async function prepareForEvent(
  api: Pick<AdoptionApi, 'listPets'>,
  profileId: string,
  cache: AnimalCache,
): Promise<Result<{ availableOffline: number; listsFetched: number }>> {
  let listsFetched = 0;
  let failure: Err | null = null;
  for (const query of EVENT_QUERIES) {
    const listed = await api.listPets({ profileId, query });
    if (!listed.ok) {
      failure ??= listed;
      if (STOP_CODES.has(listed.error.code)) break;
      continue;
    }
    await cache.saveList(query, listed.data.animals, listed.data.fetchedAt);
    listsFetched += 1;
  }
  const availableOffline = await cache.count();
  if (failure) {
    const { error } = failure;
    const message = t('toolkit.prepareFailed', { message: error.message, count: availableOffline });
    return { ok: false, error: { ...error, message } };
  }
  return ok({ availableOffline, listsFetched });
}

export class PrepareForEventStore {
  running = $state(false);
  failed = $state(false);
  // Kept as how to say it, so that it follows a change of language.
  #message = $state<(() => string) | null>(null);

  constructor(
    private readonly api: AdoptionApi,
    private readonly profileId: string,
    private readonly cache: AnimalCache,
  ) {}

  /** What the last run did, in the language shown. */
  get message(): string | null {
    return this.#message?.() ?? null;
  }

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.#message = null;
    const result = await prepareForEvent(this.api, this.profileId, this.cache);
    this.running = false;
    this.failed = !result.ok;
    if (result.ok) {
      const count = result.data.availableOffline;
      this.#message = () => t('toolkit.prepareReady', { count });
    } else {
      const reason = result.error.message;
      this.#message = () => t('toolkit.prepareCouldNot', { reason });
    }
  }
}
