/**
 * What the stores need from the data layer's sync (a window's SharedSync over its SyncEngine),
 * kept narrow so component tests can pass a fake.
 */
import type { SyncProgress } from '../data/sync-engine';

export type { SyncProgress };

export interface SyncDriver {
  start?(): void;
  stop?(): void;
  /** New work for a profile (an entry added, edited or answered). */
  kick(profileId?: string): void;
  /** A key was saved: lift the pause and send. */
  resume(profileId: string): void;
  /** The profile's service is reachable again: a wait may be cut short (once). */
  wake?(profileId: string): void;
  /** The profile was removed: never touch its queue again. */
  forget?(profileId: string): void;
  progress(profileId: string): SyncProgress;
  onProgress(listener: (progress: SyncProgress) => void): () => void;
}
