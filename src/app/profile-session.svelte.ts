/**
 * Everything that belongs to one profile: its database and safety copy, cache, list, saved view,
 * outbox, forms, category names and print view. Switching profile switches them together with no
 * mix-up (AppStores keeps one per profile).
 */
import { AddAnimalFormStore } from '../add';
import { CategoriesStore } from '../categories';
import { AnimalListStore, SavedAnimalsStore } from '../list';
import type { AdoptionApi } from '../shared/app-api/client';
import {
  AnimalCache,
  DuplicateIndex,
  duplicateQuestion,
  openProfileDb,
  Outbox,
  type ProfileDb,
  SetAsideStore,
} from '../storage';
import { safetyCopyOf, type StorageHealthStore, TwoCopies } from '../two-copies';
import { QueueStore } from '../queue';
import type { SyncDriver } from '../sync';
import { PrepareForEventStore, PrintStore } from '../toolkit';

export class ProfileSession {
  readonly db: ProfileDb;
  readonly cache: AnimalCache;
  readonly list: AnimalListStore;
  readonly saved: SavedAnimalsStore;
  readonly outbox: QueueStore;
  readonly setAside: SetAsideStore;
  readonly addForm: AddAnimalFormStore;
  readonly prepare: PrepareForEventStore;
  readonly categories: CategoriesStore;
  readonly print: PrintStore;
  /** The database opened and compared with the safety copy; what staff should know of it. */
  readonly storage: TwoCopies;
  #offProgress: (() => void) | null = null;
  #allSentAt: number | null = null;

  /**
   * `storage`: the window's record of storage events, and what to do when the browser cannot
   * open this profile's database (AppStores goes on with one in memory).
   */
  constructor(
    readonly api: AdoptionApi,
    readonly profileId: string,
    private readonly sync: SyncDriver,
    storage: { health: StorageHealthStore; unusable(reason: string): void },
  ) {
    this.db = openProfileDb(profileId);
    const copy = safetyCopyOf(api, profileId);
    this.storage = new TwoCopies(profileId, this.db, copy, storage.health, {
      unusable: (reason) => storage.unusable(reason),
      restored: () => this.sync.sendPending(profileId),
    });
    this.cache = new AnimalCache(this.db);
    this.saved = new SavedAnimalsStore(this.db);
    this.outbox = new QueueStore(profileId, this.db, new Outbox(this.db, undefined, copy), sync, () =>
      this.storage.writeFailed(),
    );
    this.setAside = new SetAsideStore(this.db);
    this.list = new AnimalListStore(api, profileId, this.cache, this.outbox);
    this.categories = new CategoriesStore(this.db);
    this.print = new PrintStore(api, this.cache);
    this.addForm = new AddAnimalFormStore((animal) => this.outbox.enqueue(animal), undefined, {
      categoryIdOf: (text) => this.categories.labels.idOf(text),
      duplicateQuestion: async (animal) => {
        const matches = (await DuplicateIndex.read(this.db)).find(animal);
        return matches.length > 0 ? duplicateQuestion(animal, matches, this.categories.labels) : null;
      },
      entryOf: (localId) => this.outbox.lookup(localId),
    });
    this.prepare = new PrepareForEventStore(api, profileId, this.cache);
  }

  start(): void {
    void this.storage.start();
    this.saved.start();
    this.outbox.start();
    this.setAside.start();
    this.categories.start();
    this.#allSentAt = this.sync.progress(this.profileId).allSentAt;
    // A batch was sent: the list asks the service again (once per batch, not per animal).
    this.#offProgress ??= this.sync.onProgress(({ profileId, allSentAt }) => {
      if (profileId !== this.profileId || allSentAt === null || allSentAt === this.#allSentAt) return;
      this.#allSentAt = allSentAt;
      void this.list.refreshAfterSend();
    });
  }

  stop(): void {
    this.storage.stop();
    this.saved.stop();
    this.outbox.stop();
    this.setAside.stop();
    this.categories.stop();
    this.#offProgress?.();
    this.#offProgress = null;
  }
}
