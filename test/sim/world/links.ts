/**
 * A one-way message link between two processes (a window's IPC to its core and back, one
 * window's BroadcastChannel to another's, a lock being granted): messages arrive in the order
 * sent, each when the fast-check scheduler releases it, so the order of messages on different
 * links is the scheduler's (and is shrunk with the rest of a failing day).
 */
import type { SimLoop } from './loop';

export class Link {
  readonly #queue: Array<() => void> = [];
  #scheduled = false;
  #closed = false;

  constructor(
    private readonly loop: SimLoop,
    readonly label: string,
  ) {}

  post(deliver: () => void): void {
    if (this.#closed) return;
    this.#queue.push(deliver);
    this.#schedule();
  }

  /** Nothing more arrives (the receiving or the sending process is gone). */
  close(): void {
    this.#closed = true;
    this.#queue.length = 0;
  }

  get closed(): boolean {
    return this.#closed;
  }

  #schedule(): void {
    if (this.#scheduled || this.#queue.length === 0) return;
    this.#scheduled = true;
    this.loop.deliver(this.label, () => {
      this.#scheduled = false;
      if (this.#closed) return;
      const next = this.#queue.shift();
      this.#schedule();
      next?.();
    });
  }
}
