/**
 * What is known of each profile's API key, tracked here alone: every call of every window and
 * of the sync engine passes the core, so one tracker sees them all (renderers read the `key`
 * events and the `keyStatus` channel). States (src/shared/app-api/api.ts `KeyState`):
 * - `none`: no key is saved for the profile's address (the keychain says so, or a call found none);
 * - `saved`: a key was saved and nothing has been tried with it yet;
 * - `accepted`: the service answered a call made with it;
 * - `refused`: the service answered 401 to it (testKey's `invalid`, which a ban also gives).
 * A call's outcome counts only when no key was saved or removed while it ran: a 401 to the
 * old key must not mark a key just saved as refused.
 */
import type { EventPayload, KeyState } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import type { Result } from '../../../src/shared/app-api/result';

type KeyStatus = EventPayload<'key'>;

/** What a call's result says about the key it was made with, or null when nothing. */
export function keyOutcome(result: Result<unknown>): KeyState | null {
  if (result.ok) {
    const data = result.data as { result?: unknown } | null;
    const tested = data && typeof data === 'object' ? data.result : undefined;
    if (tested === 'invalid') return 'refused';
    if (tested === 'unreachable') return null;
    return 'accepted';
  }
  if (result.error.code === 'unauthorized') return 'refused';
  if (result.error.code === 'no_key') return 'none';
  return null;
}

export interface KeyStatusOptions {
  clock: Clock;
  emit: (payload: KeyStatus) => void;
  /** Whether a key is saved for the profile's current address (the keychain), null when it cannot tell. */
  hasKey: (profileId: string) => Promise<boolean | null>;
}

export class KeyStatusTracker {
  readonly #known = new Map<string, KeyStatus>();
  readonly #generation = new Map<string, number>();
  readonly #options: KeyStatusOptions;

  constructor(options: KeyStatusOptions) {
    this.#options = options;
  }

  /** Taken before a call: its outcome counts only while the key is the one it was made with. */
  ticket(profileId: string): number {
    return this.#generation.get(profileId) ?? 0;
  }

  observe(profileId: string, result: Result<unknown>, ticket: number): void {
    if (ticket !== this.ticket(profileId)) return;
    const state = keyOutcome(result);
    if (state !== null) this.#set(profileId, state);
  }

  /** A key was saved (or replaced): nothing is known of it yet. */
  saved(profileId: string): void {
    this.#bump(profileId);
    this.#set(profileId, 'saved', true);
  }

  /** The key was removed (by staff, or because the address moved to another origin). */
  removed(profileId: string): void {
    this.#bump(profileId);
    this.#set(profileId, 'none', true);
  }

  /** The profile is gone. */
  forget(profileId: string): void {
    this.#bump(profileId);
    this.#known.delete(profileId);
  }

  /** The state now; before anything was observed, what the keychain holds. */
  async status(profileId: string): Promise<KeyStatus> {
    const known = this.#known.get(profileId);
    if (known) return known;
    const ticket = this.ticket(profileId);
    const saved = await this.#options.hasKey(profileId);
    const now = this.#known.get(profileId);
    if (now) return now;
    const status: KeyStatus = { profileId, state: saved ? 'saved' : 'none', at: this.#options.clock.now() };
    // Remembered only when it is still the keychain's answer (no save or removal meanwhile) and a definite one.
    if (saved !== null && ticket === this.ticket(profileId)) this.#known.set(profileId, status);
    return status;
  }

  #bump(profileId: string): void {
    this.#generation.set(profileId, this.ticket(profileId) + 1);
  }

  #set(profileId: string, state: KeyState, always = false): void {
    const previous = this.#known.get(profileId);
    if (!always && previous?.state === state) return;
    const status: KeyStatus = { profileId, state, at: this.#options.clock.now() };
    this.#known.set(profileId, status);
    this.#options.emit(status);
  }
}
