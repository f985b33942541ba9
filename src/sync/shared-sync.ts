/**
 * One sender per app. Windows of one origin (browser tabs, Electron windows) share the
 * profiles' outboxes in IndexedDB; two engines draining one outbox send entries twice (each
 * takes the other's `sending` entry for one in doubt). So one window's engine sends while it
 * holds a Web Lock (`navigator.locks`, in Chromium and so in Electron); the engines of the
 * other windows wait in that lock's queue, and the next one gets it when the sender's window
 * closes or crashes (the browser releases a gone document's locks). A waiting window shows
 * the sender's progress, which the sender posts on a BroadcastChannel, and hands new work
 * (an entry added, edited or answered; a key saved) to it the same way; the outbox itself
 * every window reads from IndexedDB (liveQuery).
 *
 * The Locks API needs a secure context, and Chromium denies it to opaque origins
 * (third_party/blink/renderer/modules/locks/lock_manager.cc: `CanAccessLocks()` is
 * `!IsOpaque()`). The browser host's http://<site>.localhost page (loopback) is a secure context; Electron's
 * app://adoption-desk page is one with a tuple origin because the scheme is registered
 * `standard` and `secure` (electron/main/app-protocol.ts). Where the API is missing or refused,
 * this window sends alone (as one window always does) and says so on the console.
 */
import { createEmitter, type Disposer } from '../shared/basics/emitter';
import { errorMessage } from '../shared/basics/errors';
import { AppError } from '../shared/app-api/result';
import { z } from '../shared/basics/zod';
import type { SyncEngine } from './sync-engine';
import { idleProgress, type SyncProgress } from './sync-progress';

export const SYNC_LOCK = 'adoption-desk.sync';
export const SYNC_CHANNEL = 'adoption-desk.sync';

export interface LockManagerLike {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<unknown>;
}

export interface ChannelLike {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

export interface SharedSyncOptions {
  engine: SyncEngine;
  profileIds: () => string[];
  locks: LockManagerLike | null;
  openChannel: () => ChannelLike | null;
  warn?: (message: string) => void;
}

const Progress = z.object({
  profileId: z.string(),
  total: z.number(),
  sent: z.number(),
  active: z.boolean(),
  pausedFor: z.nullable(z.enum(['unauthorized', 'no_key', 'not_configured'])),
  lastError: z.nullable(AppError),
  allSentAt: z.nullable(z.number()),
  nextAttemptAt: z.nullable(z.number()),
  needsAttention: z.number(),
  checkNeeded: z.number(),
});

const Message = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello') }),
  z.object({ type: z.literal('progress'), progress: Progress }),
  z.object({ type: z.literal('send-pending'), profileId: z.optional(z.string()) }),
  z.object({ type: z.literal('resume-after-key'), profileId: z.string() }),
]);
type Message = z.infer<typeof Message>;

/** The SyncDriver of a window: its own engine while it holds the lock, the sender's progress otherwise. */
export class SharedSync {
  #leading = false;
  #running = false;
  #abort: AbortController | null = null;
  #release: (() => void) | null = null;
  #channel: ChannelLike | null = null;
  #offEngine: (() => void) | null = null;
  readonly #theirs = new Map<string, SyncProgress>();
  readonly #listeners = createEmitter<[p: SyncProgress]>();

  constructor(private readonly opts: SharedSyncOptions) {}

  /** Whether this window's engine is the one sending. */
  get leading(): boolean {
    return this.#leading;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#offEngine = this.opts.engine.onProgress((progress) => {
      if (!this.#leading) return;
      this.#emit(progress);
      this.#post({ type: 'progress', progress });
    });
    this.#channel = this.opts.openChannel();
    if (this.#channel) this.#channel.onmessage = (event) => this.#receive(event.data);
    const { locks } = this.opts;
    if (!locks) {
      this.#lead();
      return;
    }
    const abort = (this.#abort = new AbortController());
    locks
      .request(SYNC_LOCK, { signal: abort.signal }, () => {
        this.#lead();
        return new Promise<void>((release) => (this.#release = release));
      })
      .catch((error: unknown) => {
        if (abort.signal.aborted || !this.#running) return;
        const message = errorMessage(error);
        this.opts.warn?.(`Web Locks are not available (${message}): this window sends on its own.`);
        this.#lead();
      });
    this.#post({ type: 'hello' });
  }

  stop(): void {
    this.#running = false;
    this.#leading = false;
    this.opts.engine.stop();
    this.#abort?.abort();
    this.#release?.();
    this.#release = null;
    this.#offEngine?.();
    this.#offEngine = null;
    this.#channel?.close();
    this.#channel = null;
  }

  sendPending(profileId?: string): void {
    if (this.#leading) this.opts.engine.sendPending(profileId);
    else this.#post(profileId ? { type: 'send-pending', profileId } : { type: 'send-pending' });
  }

  resumeAfterKey(profileId: string): void {
    if (this.#leading) this.opts.engine.resumeAfterKey(profileId);
    else this.#post({ type: 'resume-after-key', profileId });
  }

  /** Connectivity is back: only the sender acts (every window hears the same event). */
  retryEarly(profileId: string): void {
    if (this.#leading) this.opts.engine.retryEarly(profileId);
  }

  forget(profileId: string): void {
    this.opts.engine.forget(profileId);
    this.#theirs.delete(profileId);
  }

  progress(profileId: string): SyncProgress {
    if (this.#leading) return this.opts.engine.progress(profileId);
    return this.#theirs.get(profileId) ?? idleProgress(profileId);
  }

  onProgress(listener: (progress: SyncProgress) => void): Disposer {
    return this.#listeners.on(listener);
  }

  #lead(): void {
    if (!this.#running || this.#leading) return;
    this.#leading = true;
    this.#theirs.clear();
    this.opts.engine.run();
    // Every window now shows this one's progress (the last sender's is no longer true).
    for (const profileId of this.opts.profileIds()) {
      const progress = this.opts.engine.progress(profileId);
      this.#emit(progress);
      this.#post({ type: 'progress', progress });
    }
  }

  #emit(progress: SyncProgress): void {
    this.#listeners.emit(progress);
  }

  #post(message: Message): void {
    try {
      this.#channel?.postMessage(message);
    } catch {
      // A closed channel (the window is going away): nothing to tell.
    }
  }

  #receive(data: unknown): void {
    const parsed = Message.safeParse(data);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'progress') {
      if (this.#leading) return;
      this.#theirs.set(message.progress.profileId, message.progress);
      this.#emit(message.progress);
    } else if (this.#leading) {
      if (message.type === 'hello') {
        for (const id of this.opts.profileIds()) this.#post({ type: 'progress', progress: this.progress(id) });
      } else if (message.type === 'send-pending') this.opts.engine.sendPending(message.profileId);
      else this.opts.engine.resumeAfterKey(message.profileId);
    }
  }
}
