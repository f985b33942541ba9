/**
 * The core's events (governor snapshots, connectivity, profile changes) on their way to
 * the transports: Electron forwards them with `webContents.send`, the browser host over
 * Server-Sent Events. Listeners are called in emit order; one failing listener never
 * stops the others or the emitter (the contract's emitter, src/shared/basics/emitter.ts).
 */
import type { EventName, EventPayload } from '../../../src/shared/app-api/api';
import { createEmitter } from '../../../src/shared/basics/emitter';

export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface EventBus {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: EventName, payload: unknown) => void): () => void;
}

export function createEventBus(onListenerError: (error: unknown) => void = () => {}): EventBus {
  const emitter = createEmitter<[event: EventName, payload: unknown]>({ onListenerError });
  return { emit: (event, payload) => emitter.emit(event, payload), subscribe: (listener) => emitter.on(listener) };
}
