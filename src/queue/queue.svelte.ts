/**
 * The outbox of one profile as the UI sees it: entries live from IndexedDB (liveQuery, so
 * every window sees the same queue whichever window sends), with the cached records of the
 * animals sent from it (so the list shows a sent animal in place of its queued row), enqueue
 * (durable before it shows), Edit & resend / Discard, staff's answers to a check ("it is this
 * one" / "send mine"), and the sync progress.
 */
import { liveQuery, type Subscription } from 'dexie';
import type { NewAnimal } from '../shared/records/animal';
import { errorMessage } from '../shared/basics/errors';
import {
  BrowserStorageError,
  type CachedAnimal,
  type EntryLookup,
  type Outbox,
  type OutboxEntry,
  type ProfileDb,
} from '../storage';
import type { SyncDriver, SyncProgress } from '../sync';

export class QueueStore {
  entries = $state.raw<OutboxEntry[]>([]);
  /** The cached records of the entries the service confirmed, in the order they were entered. */
  sentAnimals = $state.raw<CachedAnimal[]>([]);
  progress = $state<SyncProgress | null>(null);
  error = $state<string | null>(null);
  readonly waiting: OutboxEntry[] = $derived(this.entries.filter((e) => e.state === 'queued' || e.state === 'sending'));
  /** The entries shown as rows of their own (not sent yet, not set aside for editing). */
  readonly listed: OutboxEntry[] = $derived(
    this.entries.filter((e) => e.state === 'queued' || e.state === 'sending' || e.state === 'check_needed'),
  );
  /** Something was sent from this outbox (kept a day): the queue is "all sent", not merely empty. */
  readonly anySent: boolean = $derived(this.entries.some((e) => e.state === 'sent'));
  readonly needsAttention: OutboxEntry[] = $derived(this.entries.filter((e) => e.state === 'needs_attention'));
  /** Entries the app could not settle alone: is an animal on the service this one? */
  readonly checkNeeded: OutboxEntry[] = $derived(this.entries.filter((e) => e.state === 'check_needed'));
  /** Everything the service has not confirmed yet (lost if the profile is removed). */
  readonly unsent: OutboxEntry[] = $derived(this.entries.filter((e) => e.state !== 'sent'));
  #subscription: Subscription | null = null;
  #offProgress: (() => void) | null = null;
  /** Every entry this window has seen in the outbox (not state: it only tells "gone" from "not read yet"). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #seen = new Set<string>();

  /**
   * `storageFailed`: told when the browser's storage refused a write whose entries the safety
   * copy holds (the profile's storage is checked again, and puts them back).
   */
  constructor(
    readonly profileId: string,
    private readonly db: ProfileDb,
    private readonly outbox: Outbox,
    private readonly sync: SyncDriver,
    private readonly storageFailed: () => void = () => {},
  ) {}

  start(): void {
    const db = this.db;
    // Rows that fail the schema are left out here; the sync pass moves them to "Set aside".
    this.#subscription ??= liveQuery(async () => {
      const { entries } = await this.outbox.readAll();
      const sentIds = entries.flatMap((entry) => (entry.state === 'sent' && entry.serverId ? [entry.serverId] : []));
      const sent = sentIds.length > 0 ? await db.animals.bulkGet(sentIds) : [];
      return { entries, sent: sent.filter((row): row is CachedAnimal => row !== undefined) };
    }).subscribe({
      next: ({ entries, sent }) => {
        for (const entry of entries) this.#seen.add(entry.localId);
        this.entries = entries;
        this.sentAnimals = sent;
      },
      error: (error: unknown) => {
        this.error = errorMessage(error);
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

  /**
   * Writes the creation to both copies (the safety copy on disk, then IndexedDB with strict
   * durability), then asks sync to send. Saved once the safety copy has it: when only the
   * browser's storage refused it, it is put back from there (`storageFailed`).
   */
  async enqueue(animal: NewAnimal): Promise<{ ok: true; localId: string } | { ok: false; message: string }> {
    const saved = await this.enqueueMany([animal]);
    return saved.ok ? { ok: true, localId: saved.localIds[0]! } : saved;
  }

  /** An entry as this window knows it now (reactive: it follows the outbox). */
  lookup(localId: string): EntryLookup {
    const entry = this.entries.find((e) => e.localId === localId);
    if (entry) return { kind: 'found', entry };
    return this.#seen.has(localId) ? { kind: 'gone' } : { kind: 'pending' };
  }

  /**
   * Writes several creations (a spreadsheet import) in file order in one transaction, each with
   * its own idempotency key; resolves once all are on disk (or none is), then asks sync to send.
   */
  async enqueueMany(
    animals: readonly NewAnimal[],
  ): Promise<{ ok: true; count: number; localIds: string[] } | { ok: false; message: string }> {
    let entries: readonly OutboxEntry[];
    try {
      entries = await this.outbox.enqueueMany(animals);
    } catch (error) {
      if (!(error instanceof BrowserStorageError)) return { ok: false, message: errorMessage(error) };
      entries = error.kept;
      this.storageFailed();
    }
    this.sync.sendPending(this.profileId);
    return { ok: true, count: entries.length, localIds: entries.map((entry) => entry.localId) };
  }

  async editAndResend(localId: string, animal: NewAnimal): Promise<string | null> {
    try {
      await this.outbox.edit(localId, animal);
    } catch (error) {
      return errorMessage(error);
    }
    this.sync.sendPending(this.profileId);
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
      return errorMessage(error);
    }
    this.sync.sendPending(this.profileId);
    return null;
  }
}
