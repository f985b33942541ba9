/**
 * No duplicate reads (issue 11.3): an identical read of a profile (same method, path and query)
 * already queued or in flight is shared by every caller instead of being queued again; and a
 * read made for a view (e.g. the animal list screen) is dropped before it is sent when a newer
 * read for the same view with another query comes, unless another caller still waits for it.
 * A read already sent is never cut short: its answer is on the way.
 */

interface SharedRead<T> {
  promise: Promise<T>;
  controller: AbortController;
  /** Callers waiting for it (a superseded view no longer does). */
  waiting: number;
  sent: boolean;
}

export class ReadSharing<T> {
  private readonly reads = new Map<string, SharedRead<T>>();
  /** The key of the latest read of each view. */
  private readonly views = new Map<string, string>();

  /**
   * The answer of the read `key`, started with `start` unless it is already under way.
   * `start` gets the signal that drops it before it is sent and a callback to call when it is sent.
   */
  run(
    key: string,
    view: string | undefined,
    start: (signal: AbortSignal, onSent: () => void) => Promise<T>,
  ): Promise<T> {
    let read = this.reads.get(key);
    // the same view asking again for the same read is still one caller waiting
    const again = read !== undefined && view !== undefined && this.views.get(view) === key;
    if (read && !again) read.waiting += 1;
    else if (!read) {
      const controller = new AbortController();
      const created: SharedRead<T> = { promise: Promise.resolve() as Promise<T>, controller, waiting: 1, sent: false };
      created.promise = start(controller.signal, () => (created.sent = true)).finally(() => {
        if (this.reads.get(key) === created) this.reads.delete(key);
      });
      this.reads.set(key, created);
      read = created;
    }
    if (view !== undefined) this.supersede(view, key);
    return read.promise;
  }

  /** Reads of this profile queued or in flight. */
  get size(): number {
    return this.reads.size;
  }

  private supersede(view: string, key: string): void {
    const previousKey = this.views.get(view);
    this.views.set(view, key);
    if (previousKey === undefined || previousKey === key) return;
    const previous = this.reads.get(previousKey);
    if (!previous) return;
    previous.waiting -= 1;
    if (previous.waiting <= 0 && !previous.sent) {
      this.reads.delete(previousKey);
      previous.controller.abort();
    }
  }
}
