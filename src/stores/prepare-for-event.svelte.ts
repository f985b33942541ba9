/** "Prepare for the event": one action that fills the cache and says how many animals are offline-ready. */
import type { AdoptionApi } from '../shared/client';
import type { AnimalCache } from '../data/animal-cache';
import { prepareForEvent } from '../data/prepare-for-event';

export class PrepareForEventStore {
  running = $state(false);
  message = $state<string | null>(null);
  failed = $state(false);

  constructor(
    private readonly api: AdoptionApi,
    private readonly profileId: string,
    private readonly cache: AnimalCache,
  ) {}

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.message = null;
    const result = await prepareForEvent(this.api, this.profileId, this.cache);
    this.running = false;
    this.failed = !result.ok;
    this.message = result.ok
      ? `Ready: ${result.data.availableOffline} animals are now available offline.`
      : `Could not prepare: ${result.error.message}`;
  }
}
