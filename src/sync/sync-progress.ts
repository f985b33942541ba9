/**
 * The progress of one profile's drain ("sending 3 of 12", then "all sent"), counted from
 * the outbox itself so that it stays right across retries, edits and discards.
 */
import type { AppError } from '../shared/app-api/result';
import type { OutboxEntry } from '../storage';
import type { PausedFor } from './sync-decisions';

export interface SyncProgress {
  profileId: string;
  /** Entries pending at the start of the current drain plus those added during it. */
  total: number;
  /** Of those, how many the service has confirmed. */
  sent: number;
  /** Working through the queue (sending, or waiting to retry); false when idle or paused. */
  active: boolean;
  pausedFor: null | PausedFor;
  lastError: AppError | null;
  /** When a drain last emptied the queue having sent something. */
  allSentAt: number | null;
  /** When the engine next tries, while it waits to retry. */
  nextAttemptAt: number | null;
  /** Entries set aside for staff to edit or discard. */
  needsAttention: number;
  /** Entries waiting for staff to say whether an animal on the service is theirs. */
  checkNeeded: number;
}

/** A profile's progress before anything was queued. */
export function idleProgress(profileId: string): SyncProgress {
  return {
    profileId,
    total: 0,
    sent: 0,
    active: false,
    pausedFor: null,
    lastError: null,
    allSentAt: null,
    nextAttemptAt: null,
    needsAttention: 0,
    checkNeeded: 0,
  };
}

export class DrainProgress {
  readonly progress: SyncProgress;
  /** A drain is open from the moment entries are pending until the queue is empty again. */
  private open = false;
  private session = new Set<string>();

  constructor(profileId: string) {
    this.progress = idleProgress(profileId);
  }

  get draining(): boolean {
    return this.open;
  }

  /** Recounts from the whole outbox (creation order); returns the first pending entry, if any. */
  update(all: OutboxEntry[], now: number): OutboxEntry | undefined {
    const pending = all.filter((entry) => entry.state === 'queued' || entry.state === 'sending');
    const progress = this.progress;
    if (!this.open && pending.length > 0) {
      this.open = true;
      this.session = new Set();
      progress.allSentAt = null;
    }
    for (const entry of pending) this.session.add(entry.localId);
    const inSession = all.filter((entry) => this.session.has(entry.localId));
    progress.total = inSession.length;
    progress.sent = inSession.filter((entry) => entry.state === 'sent').length;
    progress.needsAttention = all.filter((entry) => entry.state === 'needs_attention').length;
    progress.checkNeeded = all.filter((entry) => entry.state === 'check_needed').length;
    if (pending.length === 0 && this.open) {
      this.open = false;
      progress.nextAttemptAt = null;
      // "All sent" only when it is true: an entry of this drain left to staff is not sent.
      if (progress.sent > 0 && progress.sent === progress.total) progress.allSentAt = now;
    }
    return pending[0];
  }
}
