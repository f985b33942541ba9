/**
 * What a browser gives the windows of one computer (one origin), in-process: the Web Locks
 * API (`navigator.locks`, which src/sync/shared-sync.ts uses for one sender per app),
 * BroadcastChannel (its messages, and Dexie's), localStorage, and the few `window` fields the
 * stores read. Semantics follow the specifications: a lock request waits in a FIFO queue until
 * the holder's callback settles, an aborted request rejects with an `AbortError`; a message
 * reaches every other open channel of the same name on the same origin, never its sender, in
 * the order that sender posted it.
 */
import { Link } from './links';
import type { SimLoop } from './loop';

interface Waiter {
  grant: () => void;
  owner: object;
}

/** `navigator.locks` of one origin. */
export class SimLockManager {
  readonly #held = new Map<string, object>();
  readonly #queues = new Map<string, Waiter[]>();

  /** Who holds `name` now (the window's lock object), or undefined. */
  holder(name: string): object | undefined {
    return this.#held.get(name);
  }

  /** The windows waiting for `name`. */
  waiting(name: string): number {
    return this.#queues.get(name)?.length ?? 0;
  }

  request(name: string, options: { signal?: AbortSignal }, callback: () => Promise<void>): Promise<unknown> {
    const owner = {};
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.#held.set(name, owner);
        let result: Promise<void>;
        try {
          result = callback();
        } catch (error) {
          result = Promise.reject(error);
        }
        result.then(
          (value) => {
            this.#release(name, owner);
            resolve(value);
          },
          (error: unknown) => {
            this.#release(name, owner);
            reject(error);
          },
        );
      };
      const signal = options.signal;
      if (signal?.aborted) return reject(new DOMException('The request was aborted.', 'AbortError'));
      if (!this.#held.has(name)) {
        queueMicrotask(grant);
        this.#held.set(name, owner);
        return;
      }
      const queue = this.#queues.get(name) ?? [];
      this.#queues.set(name, queue);
      const waiter = { grant, owner };
      queue.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const index = queue.indexOf(waiter);
          if (index < 0) return;
          queue.splice(index, 1);
          reject(new DOMException('The request was aborted.', 'AbortError'));
        },
        { once: true },
      );
    });
  }

  #release(name: string, owner: object): void {
    if (this.#held.get(name) !== owner) return;
    this.#held.delete(name);
    const next = this.#queues.get(name)?.shift();
    if (next) {
      this.#held.set(name, next.owner);
      queueMicrotask(next.grant);
    }
  }
}

/** The BroadcastChannels of one origin. */
export class BroadcastHub {
  readonly channels = new Set<SimBroadcastChannel>();
  readonly #links = new Map<string, Link>();

  constructor(
    readonly loop: SimLoop,
    readonly name: string,
  ) {}

  link(from: SimBroadcastChannel, to: SimBroadcastChannel): Link {
    const key = `${from.id}>${to.id}`;
    let link = this.#links.get(key);
    if (!link) {
      link = new Link(this.loop, `${this.name} channel ${from.id}→${to.id}`);
      this.#links.set(key, link);
    }
    return link;
  }

  /** The hub new channels join: the one of the window being opened (see `SimBroadcastChannel`). */
  static get opening(): BroadcastHub | null {
    return opening.hub;
  }

  static set opening(hub: BroadcastHub | null) {
    opening.hub = hub;
  }
}

// Kept on globalThis: the setup file installs `SimBroadcastChannel` from its own module graph.
const OPENING = Symbol.for('adoption-desk.sim.opening-hub');
const opening = ((globalThis as unknown as Record<symbol, unknown>)[OPENING] ??= { hub: null }) as {
  hub: BroadcastHub | null;
};

const IDS = Symbol.for('adoption-desk.sim.channel-ids');
const channelIds = ((globalThis as unknown as Record<symbol, unknown>)[IDS] ??= { next: 0 }) as { next: number };

/**
 * `BroadcastChannel` of the simulation. The app makes its channel while its window starts
 * (src/app/app-stores.svelte.ts, `createApp`), and the world opens one window at a time, so
 * a channel joins the hub of the window being opened. Dexie makes one when it loads, with no
 * window opening: that one joins no hub (Dexie tells its other instances in this process
 * directly).
 */
export class SimBroadcastChannel {
  readonly id = ++channelIds.next;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onmessageerror: unknown = null;
  readonly #hub: BroadcastHub | null;
  #closed = false;

  constructor(readonly name: string) {
    this.#hub = BroadcastHub.opening;
    this.#hub?.channels.add(this);
  }

  postMessage(message: unknown): void {
    if (this.#closed) throw new DOMException('the channel is closed', 'InvalidStateError');
    const hub = this.#hub;
    if (!hub) return;
    const copy = structuredClone(message);
    for (const other of hub.channels) {
      if (other === this || other.name !== this.name) continue;
      hub.link(this, other).post(() => {
        if (!other.#closed) other.onmessage?.({ data: structuredClone(copy) } as MessageEvent);
      });
    }
  }

  close(): void {
    this.#closed = true;
    this.#hub?.channels.delete(this);
  }

  unref(): this {
    return this;
  }

  addEventListener(): void {}
  removeEventListener(): void {}
}

/** localStorage of one origin. */
export class MemoryStorage {
  readonly #items = new Map<string, string>();
  get length(): number {
    return this.#items.size;
  }
  getItem(key: string): string | null {
    return this.#items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.#items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.#items.delete(key);
  }
  clear(): void {
    this.#items.clear();
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  dump(): string {
    return JSON.stringify([...this.#items]);
  }
}

/** The `window` the app's stores are given (createApp's `win`): what they read of it, nothing more. */
export function simWindow(storage: MemoryStorage, locks: SimLockManager): Window {
  return {
    location: { hash: '' },
    addEventListener: () => {},
    removeEventListener: () => {},
    localStorage: storage,
    navigator: {
      locks,
      languages: ['en-GB', 'en'],
      storage: { persisted: async () => true, persist: async () => true },
    },
    document: { documentElement: { lang: 'en' } },
  } as unknown as Window;
}
