/**
 * The core's events (governor snapshots, connectivity, profile changes) on their way to
 * the transports: Electron forwards them with `webContents.send`, the browser host over
 * Server-Sent Events. Listeners are called in emit order; one failing listener never
 * stops the others or the emitter.
 */
import type { EventName, EventPayload } from '../../../src/shared/api';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface EventBus {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void;
}

export function createEventBus(onListenerError: (error: unknown) => void = () => {}): EventBus {
  const listeners = new Set<(event: EventName, payload: unknown) => void>();
  return {
    emit(event, payload) {
      for (const listener of [...listeners]) {
        try {
          listener(event, payload);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
