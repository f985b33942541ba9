/**
 * What the stores need from the data layer's SyncEngine, kept narrow so component tests can
 * pass a fake. The SyncEngine satisfies it.
 */
import type { SyncProgress } from '../data/sync-engine';

export type { SyncProgress };

export interface SyncDriver {
  start?(): void;
  stop?(): void;
  kick(profileId?: string): void;
  resume(profileId: string): void;
  progress(profileId: string): SyncProgress;
  onProgress(listener: (progress: SyncProgress) => void): () => void;
}
