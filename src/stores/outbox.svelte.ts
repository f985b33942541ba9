/**
 * The outbox of one profile as the UI sees it: entries live from IndexedDB (liveQuery, so
 * every window sees the same queue whichever window sends), enqueue (durable before it
 * shows), Edit & resend / Discard, staff's answers to a check ("it is this one" / "send
 * mine"), and the sync progress.
 */
import { liveQuery, type Subscription } from 'dexie';
import type { NewPet } from '../shared/animal';
import type { OutboxEntry, ProfileDb } from '../data/db';
import type { Outbox } from '../data/outbox';
import type { SyncDriver, SyncProgress } from './sync-driver';

export class OutboxStore {
  entries = $state.raw<OutboxEntry[]>([]);
  progress = $state<SyncProgress | null>(null);
  error = $state<string | null>(null);
  readonly waiting: OutboxEntry[] = $derived(this.entries.filter((e) => e.state === 'queued' || e.state === 'sending'));
  readonly needsAttention: OutboxEntry[] = $derived(this.entries.filter((e) => e.state === 'needs_attention'));
  /** Entries the app could not settle alone: is an animal on the service this one? */
  readonly checkNeeded: OutboxEntry[] = $derived(this.entries.filter((e) => e.state === 'check_needed'));
  /** Everything the service has not confirmed yet (lost if the profile is removed). */
  readonly unsent: OutboxEntry[] = $derived(this.entries.filter((e) => e.state !== 'sent'));
  #subscription: Subscription | null = null;
  #offProgress: (() => void) | null = null;

  constructor(
    readonly profileId: string,
    private readonly db: ProfileDb,
    private readonly outbox: Outbox,
    private readonly sync: SyncDriver,
  ) {}

  start(): void {
    this.#subscription ??= liveQuery(() => this.db.outbox.orderBy('seq').toArray()).subscribe({
      next: (rows) => {
        this.entries = rows.map(({ seq: _seq, ...entry }) => entry);
      },
      error: (error: unknown) => {
        this.error = error instanceof Error ? error.message : String(error);
      },
    });
    this.progress = this.sync.progress(this.profileId);
    this.#offProgress ??= this.sync.onProgress((progress) => {
      if (progress.profileId === this.profileId) this.progress = progress;
    });
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
    this.#offProgress?.();
    this.#offProgress = null;
  }

  /** Writes the creation to the outbox (committed, strict durability), then asks sync to send. */
  async enqueue(pet: NewPet): Promise<{ ok: true } | { ok: false; message: string }> {
    try {
      await this.outbox.enqueue(pet);
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    this.sync.kick(this.profileId);
    return { ok: true };
  }

  /**
   * Writes several creations (a spreadsheet import) in file order in one transaction, each with
   * its own idempotency key; resolves once all are on disk (or none is), then asks sync to send.
   */
  async enqueueMany(pets: readonly NewPet[]): Promise<{ ok: true; count: number } | { ok: false; message: string }> {
    let count: number;
    try {
      count = (await this.outbox.enqueueMany(pets)).length;
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    this.sync.kick(this.profileId);
    return { ok: true, count };
  }

  async editAndResend(localId: string, pet: NewPet): Promise<string | null> {
    try {
      await this.outbox.edit(localId, pet);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    this.sync.kick(this.profileId);
    return null;
  }

  async discard(localId: string): Promise<void> {
    await this.outbox.discard(localId);
  }

  /** Staff: the service's animal `animalId` is this entry. Returns a problem message or null. */
  async confirmMatch(localId: string, animalId: string): Promise<string | null> {
    return this.#answer(() => this.outbox.confirmMatch(localId, animalId));
  }

  /** Staff: send this entry (with its own key). Returns a problem message or null. */
  async sendMine(localId: string): Promise<string | null> {
    return this.#answer(() => this.outbox.sendMine(localId));
  }

  /** Applies staff's answer, then lets sync go on (and recount its progress). */
  async #answer(change: () => Promise<void>): Promise<string | null> {
    try {
      await change();
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    this.sync.kick(this.profileId);
    return null;
  }

  /** After a key was saved: let sync try again. */
  resume(): void {
    this.sync.resume(this.profileId);
  }
}
