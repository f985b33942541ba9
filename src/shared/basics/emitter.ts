/**
 * The app's one event emitter, for the core, the hosts and the window alike: `on` returns the
 * disposer that ends that one subscription (calling it twice does nothing); `emit` calls, in the
 * order they subscribed, the listeners subscribed when it began and not disposed since. A listener
 * that throws is reported (`onListenerError`, the console by default) and never stops the others
 * or the emitter's caller.
 *
 * Not a library's: nanoevents and mitt (the tiny typed ones) call their listeners in a plain loop,
 * so one that throws stops the rest, and mitt's `on` returns no disposer.
 */

/** Ends a subscription. */
export type Disposer = () => void;

export interface Emitter<Args extends unknown[] = []> {
  /** Subscribes `listener`; each call is a subscription of its own, ended by the disposer returned. */
  on(listener: (...args: Args) => void): Disposer;
  emit(...args: Args): void;
  /** How many subscriptions are live. */
  readonly size: number;
}

export interface EmitterOptions {
  /** Told of each listener that threw (the others are called all the same). */
  onListenerError?: (error: unknown) => void;
}

const reportToConsole = (error: unknown): void => console.error('an event listener failed:', error);

export function createEmitter<Args extends unknown[] = []>(options: EmitterOptions = {}): Emitter<Args> {
  const report = options.onListenerError ?? reportToConsole;
  const subscriptions = new Set<{ listener: (...args: Args) => void }>();
  return {
    on(listener) {
      const subscription = { listener };
      subscriptions.add(subscription);
      return () => void subscriptions.delete(subscription);
    },
    emit(...args) {
      for (const subscription of [...subscriptions]) {
        if (!subscriptions.has(subscription)) continue;
        try {
          subscription.listener(...args);
        } catch (error) {
          report(error);
        }
      }
    },
    get size() {
      return subscriptions.size;
    },
  };
}
