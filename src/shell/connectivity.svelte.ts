/**
 * Whether each profile's service is reachable, as the core tracks it (electron/core/service/connectivity.ts):
 * this store only reads the core's `connectivity` events, which report every answer or
 * failure of every call, whoever made it. Until one arrives after this window opened, the
 * state is `unknown` ("not checked yet"): nothing from before a reload is taken for true now.
 */
import { t } from '../language';
import type { AdoptionApi } from '../shared/app-api/client';
import { createEmitter, type Disposer } from '../shared/basics/emitter';

export type Reachability = 'unknown' | 'online' | 'offline';

/** Whether a service is reachable, in the language shown ("Online" / "Conectado"). */
export function reachabilityText(reach: Reachability): string {
  switch (reach) {
    case 'unknown':
      return t('shell.reachUnknown');
    case 'online':
      return t('shell.reachOnline');
    case 'offline':
      return t('shell.reachOffline');
  }
}

export class ConnectivityStore {
  byProfile = $state<Record<string, { online: boolean; at: number }>>({});
  #unsubscribe: (() => void) | null = null;
  readonly #back = createEmitter<[profileId: string]>();

  constructor(private readonly api: AdoptionApi) {}

  start(): void {
    this.#unsubscribe ??= this.api.on('connectivity', ({ profileId, online, at }) => {
      // The core's reports come in the order it made them (one IPC or SSE stream): the last one
      // is the newest, whatever its time says (the computer's clock may have been set back).
      const previous = this.byProfile[profileId];
      this.byProfile[profileId] = { online, at };
      if (online && previous?.online !== true) this.#back.emit(profileId);
    });
  }

  state(profileId: string): Reachability {
    const known = this.byProfile[profileId];
    return known ? (known.online ? 'online' : 'offline') : 'unknown';
  }

  /** Called whenever a profile's service answers after being unreachable or not checked yet. */
  onBack(listener: (profileId: string) => void): Disposer {
    return this.#back.on(listener);
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
