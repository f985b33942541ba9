/**
 * The governor's waiting room: reads (user-facing) and writes (background creations) in
 * two FIFO queues. Reads go first, but after WRITE_SHARE reads in a row while a write was
 * waiting, the write goes next: a user clicking Refresh cannot starve the outbox. Writes
 * leave strictly in the order given, one at a time. An entry may carry `notBefore` (a retry
 * waiting out its backoff).
 */
export type TaskKind = 'read' | 'write';

/** At least one write per this many reads, when both wait. */
export const WRITE_SHARE = 3;

export interface Queueable {
  kind: TaskKind;
  /** When this entry may go out at the earliest, on the governor's clock (elapsed time). */
  notBefore: number;
}

export class TaskQueue<QueueEntry extends Queueable> {
  private reads: QueueEntry[] = [];
  private writes: QueueEntry[] = [];
  /** Reads sent since the last write while a write was waiting. */
  private readsAhead = 0;

  push(entry: QueueEntry): void {
    this.list(entry.kind).push(entry);
  }

  /** Puts a retried entry back at the head of its queue. */
  pushFront(entry: QueueEntry): void {
    this.list(entry.kind).unshift(entry);
  }

  remove(entry: QueueEntry): boolean {
    const list = this.list(entry.kind);
    const index = list.indexOf(entry);
    if (index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  /** Removes the entry chosen by `next` as it is sent, counting the reads that went ahead of a write. */
  take(entry: QueueEntry): void {
    if (entry.kind === 'write') this.readsAhead = 0;
    else if (this.writes.length > 0) this.readsAhead += 1;
    this.remove(entry);
  }

  /**
   * The entry to send next, or null: the first due read, else the head write if due and none
   * is in flight; the head write first once WRITE_SHARE reads went ahead of it.
   */
  next(now: number, writeInFlight: boolean): QueueEntry | null {
    const write = this.writes[0];
    const writeDue = write && !writeInFlight && write.notBefore <= now ? write : null;
    if (writeDue && this.readsAhead >= WRITE_SHARE) return writeDue;
    return this.reads.find((entry) => entry.notBefore <= now) ?? writeDue;
  }

  /** The earliest future `notBefore` among entries that could go next, or null. */
  earliestDelayed(now: number): number | null {
    const candidates = this.reads.map((entry) => entry.notBefore);
    if (this.writes[0]) candidates.push(this.writes[0].notBefore);
    const future = candidates.filter((at) => at > now);
    return future.length === 0 ? null : Math.min(...future);
  }

  get size(): number {
    return this.reads.length + this.writes.length;
  }

  counts(): { reads: number; writes: number } {
    return { reads: this.reads.length, writes: this.writes.length };
  }

  /** Empties both queues, returning what was in them. */
  drain(): QueueEntry[] {
    const all = [...this.reads, ...this.writes];
    this.reads = [];
    this.writes = [];
    return all;
  }

  private list(kind: TaskKind): QueueEntry[] {
    return kind === 'read' ? this.reads : this.writes;
  }
}
