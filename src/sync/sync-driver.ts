/**
 * What the stores need from the data layer's sync (a window's SharedSync over its SyncEngine),
 * kept narrow so component tests can pass a fake.
 */
import type { SyncProgress } from './sync-engine';

export type { SyncProgress };

export interface SyncDriver {
  start?(): void;
  stop?(): void;
  /** New work for a profile (an entry added, edited or answered): send what is due. */
  sendPending(profileId?: string): void;
  /** A key was saved: lift the pause and send. */
  resumeAfterKey(profileId: string): void;
  /** The profile's service is reachable again: try now rather than wait out the backoff (once per step). */
  retryEarly?(profileId: string): void;
  /** The profile was removed: never touch its queue again. */
  forget?(profileId: string): void;
  progress(profileId: string): SyncProgress;
  onProgress(listener: (progress: SyncProgress) => void): () => void;
}
