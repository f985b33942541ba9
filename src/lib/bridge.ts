/**
 * Where the renderer gets `window.adoption`: from the Electron preload when it is there,
 * otherwise from the loopback browser host over HTTP (calls) and Server-Sent Events
 * (events), following src/shared/host-protocol.ts. Apart from `host`, the two are
 * indistinguishable to the rest of the renderer.
 */
import type { Channel, EventName } from '../shared/api';
import { buildAdoptionApi, type AdoptionApi, type Transport } from '../shared/client';
import { BRIDGE_PREFIX, EVENTS_PATH, HOST_TOKEN_HEADER, HOST_TOKEN_META } from '../shared/host-protocol';

declare global {
  interface Window {
    adoption?: AdoptionApi;
  }
}

function browserTransport(token: string): Transport {
  let source: EventSource | null = null;
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();

  function ensureSource(event: EventName): EventSource {
    source ??= new EventSource(`${EVENTS_PATH}?token=${encodeURIComponent(token)}`);
    if (!listeners.has(event)) {
      const set = new Set<(payload: unknown) => void>();
      listeners.set(event, set);
      source.addEventListener(event, (message) => {
        let payload: unknown;
        try {
          payload = JSON.parse((message as MessageEvent<string>).data);
        } catch {
          return;
        }
        for (const listener of set) listener(payload);
      });
    }
    return source;
  }

  return {
    async invoke(channel: Channel, input: unknown) {
      const response = await fetch(`${BRIDGE_PREFIX}${channel}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [HOST_TOKEN_HEADER]: token },
        body: JSON.stringify(input ?? {}),
      });
      return response.json();
    },
    subscribe(event: EventName, listener: (payload: unknown) => void) {
      ensureSource(event);
      listeners.get(event)?.add(listener);
      return () => void listeners.get(event)?.delete(listener);
    },
  };
}

let cached: AdoptionApi | null = null;

/** The app's API for this window. Throws when the page has neither host. */
export function getAdoption(): AdoptionApi {
  if (cached) return cached;
  if (window.adoption) return (cached = window.adoption);
  const token = document.querySelector<HTMLMetaElement>(`meta[name="${HOST_TOKEN_META}"]`)?.content;
  if (!token) throw new Error('Adoption Desk must be opened from the app or from its browser host (npm run host).');
  return (cached = buildAdoptionApi(browserTransport(token), 'browser'));
}
