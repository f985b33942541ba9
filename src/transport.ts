/**
 * Where the renderer gets `window.adoption`: from the Electron preload when it is there,
 * otherwise from the loopback browser host over HTTP (calls) and Server-Sent Events
 * (events), following src/shared/app-api/host-protocol.ts. The host's session cookie goes with
 * every same-origin request by itself: this code never sees a token. Apart from `host`,
 * the two are indistinguishable to the rest of the renderer.
 */
import type { Channel, EventName } from './shared/app-api/api';
import { type AdoptionApi, buildAdoptionApi, type Transport } from './shared/app-api/client';
import { createEmitter, type Emitter } from './shared/basics/emitter';
import { t } from './language';
import { API_PREFIX, EVENTS_PATH } from './shared/app-api/host-protocol';

declare global {
  interface Window {
    adoption?: AdoptionApi;
  }
}

function browserTransport(): Transport {
  let source: EventSource | null = null;
  const emitters = new Map<EventName, Emitter<[payload: unknown]>>();

  /** The event's emitter, fed by the page's one EventSource from the first subscription on. */
  function emitterOf(event: EventName): Emitter<[payload: unknown]> {
    source ??= new EventSource(EVENTS_PATH);
    const known = emitters.get(event);
    if (known) return known;
    const emitter = createEmitter<[payload: unknown]>();
    emitters.set(event, emitter);
    source.addEventListener(event, (message) => {
      let payload: unknown;
      try {
        payload = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return;
      }
      emitter.emit(payload);
    });
    return emitter;
  }

  return {
    async invoke(channel: Channel, input: unknown) {
      const response = await fetch(`${API_PREFIX}${channel}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(input ?? {}),
        credentials: 'same-origin',
      });
      // 403: the host no longer knows this page's session (it was restarted).
      if (response.status === 403) throw new Error(t('host.noSession'));
      return response.json();
    },
    subscribe(event: EventName, listener: (payload: unknown) => void) {
      return emitterOf(event).on(listener);
    },
  };
}

let cached: AdoptionApi | null = null;

/** The app's API for this window: the preload's in Electron, else the browser host's (which served this page). */
export function getAdoption(): AdoptionApi {
  if (cached) return cached;
  if (window.adoption) return (cached = window.adoption);
  return (cached = buildAdoptionApi(browserTransport(), 'browser'));
}
