/** Whether each profile's service is reachable, from the core's events and from call results. */
import type { AdoptionApi } from '../shared/client';
import type { AppError } from '../shared/result';

export type Reachability = { online: boolean; at: number };

const OFFLINE_CODES = new Set(['offline', 'timeout']);

export class ConnectivityStore {
  byProfile = $state<Record<string, Reachability>>({});
  #unsubscribe: (() => void) | null = null;

  constructor(private readonly api: AdoptionApi) {}

  start(): void {
    this.#unsubscribe ??= this.api.on('connectivity', ({ profileId, online, at }) => {
      this.byProfile[profileId] = { online, at };
    });
  }

  /** Online unless the last thing heard about this profile said otherwise. */
  isOnline(profileId: string): boolean {
    return this.byProfile[profileId]?.online ?? true;
  }

  /** Records what a call's outcome says about reachability. */
  report(profileId: string, error: AppError | null, at = Date.now()): void {
    const online = !(error && OFFLINE_CODES.has(error.code));
    const previous = this.byProfile[profileId];
    if (!previous || previous.online !== online) this.byProfile[profileId] = { online, at };
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
