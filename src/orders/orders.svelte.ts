/** The raw answer of `GET /store/orders`, shown as JSON (the interface gives it no shape). */
import type { AdoptionApi } from '../shared/app-api/client';

export class OrdersStore {
  state = $state<'idle' | 'loading' | 'loaded' | 'error'>('idle');
  json = $state<string | null>(null);
  fetchedAt = $state<number | null>(null);
  error = $state<string | null>(null);

  constructor(
    private readonly api: AdoptionApi,
    private readonly profileId: string,
  ) {}

  async load(): Promise<void> {
    this.state = 'loading';
    const result = await this.api.ordersRaw({ profileId: this.profileId });
    if (!result.ok) {
      this.error = result.error.message;
      this.state = 'error';
      return;
    }
    this.json = JSON.stringify(result.data.body, null, 2);
    this.fetchedAt = result.data.fetchedAt;
    this.error = null;
    this.state = 'loaded';
  }
}
