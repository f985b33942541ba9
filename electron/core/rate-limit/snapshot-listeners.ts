/** The governor's snapshot listeners: each told only when the snapshot changed. */
import type { GovernorSnapshot } from '../../../src/shared/rate-limit';

export class SnapshotListeners {
  private readonly listeners = new Set<(snapshot: GovernorSnapshot) => void>();
  private lastPublished = '';

  add(listener: (snapshot: GovernorSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(snapshot: GovernorSnapshot): void {
    const text = JSON.stringify(snapshot);
    if (text === this.lastPublished) return;
    this.lastPublished = text;
    for (const listener of this.listeners) listener(snapshot);
  }
}
