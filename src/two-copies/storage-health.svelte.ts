/**
 * What this window knows of the browser's storage, for Diagnostics: whether the browser keeps the
 * site's data (`navigator.storage.persist()`, asked once at start), and what happened to each
 * profile's storage (animals restored from the safety copy, storage that could not be used,
 * problems the safety copy's reading found). One per window (AppStores).
 */
import { t } from '../language';

export type Persistence = 'kept' | 'may_be_cleared' | 'unknown';

/** Each answer as staff read it, in the language shown (read in a template, it follows the language). */
export const PERSISTENCE_TEXT: Readonly<Record<Persistence, string>> = {
  get kept() {
    return t('storage.persistenceKept');
  },
  get may_be_cleared() {
    return t('storage.persistenceMayBeCleared');
  },
  get unknown() {
    return t('storage.persistenceUnknown');
  },
};

export type StorageEvent = { profileId: string; at: number } & (
  | { kind: 'restored'; names: string[] }
  | { kind: 'lost' }
  | { kind: 'unusable'; reason: string }
  | { kind: 'problem'; text: string }
);

/** At most this many events are kept (a window open all day). */
const EVENTS_KEPT = 50;

export class StorageHealthStore {
  persistence = $state<Persistence>('unknown');
  events = $state.raw<StorageEvent[]>([]);

  /** Asks the browser to keep the site's data, and records its answer. */
  async requestPersistence(manager: Pick<StorageManager, 'persist' | 'persisted'> | undefined): Promise<void> {
    if (!manager) return;
    try {
      const kept = (await manager.persisted()) || (await manager.persist());
      this.persistence = kept ? 'kept' : 'may_be_cleared';
    } catch {
      this.persistence = 'unknown';
    }
  }

  record(event: StorageEvent): void {
    this.events = [...this.events, event].slice(-EVENTS_KEPT);
  }
}
