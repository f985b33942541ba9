/**
 * The requests of one profile under way (the governor, governor.ts, decides what may go out
 * next from these): how many, whether a write or the probe is among them, and the send order.
 */
import type { TaskKind } from './task-queue';

export class InFlight {
  count = 0;
  write = false;
  probe = false;
  private sent = 0;

  /** Counts a request going out; returns its place in the send order (1, 2, …). */
  start(kind: TaskKind, isProbe: boolean): number {
    this.count += 1;
    if (kind === 'write') this.write = true;
    if (isProbe) this.probe = true;
    return ++this.sent;
  }

  /** A request was answered or failed. */
  end(kind: TaskKind, isProbe: boolean): void {
    this.count -= 1;
    if (kind === 'write') this.write = false;
    if (isProbe) this.probe = false;
  }
}
