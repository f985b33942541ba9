/** The governor's snapshot listeners: each told only when the snapshot changed. */
import { createEmitter, type Disposer } from '../../../src/shared/basics/emitter';
import type { GovernorSnapshot } from '../../../src/shared/app-api/rate-limit';

export class SnapshotListeners {
  private readonly listeners = createEmitter<[snapshot: GovernorSnapshot]>();
  private lastPublished = '';

  add(listener: (snapshot: GovernorSnapshot) => void): Disposer {
    return this.listeners.on(listener);
  }

  publish(snapshot: GovernorSnapshot): void {
    const text = JSON.stringify(snapshot);
    if (text === this.lastPublished) return;
    this.lastPublished = text;
    this.listeners.emit(snapshot);
  }
}
