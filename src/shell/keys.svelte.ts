/**
 * API keys per profile. Write-only: a key goes straight to the core's keychain and is never
 * kept, echoed or shown. What is known of each profile's key (none, saved, accepted, refused)
 * is the core's (electron/core/keys/key-status.ts): this store reads its `key` events and the
 * `keyStatus` channel, and the key prompt, the indicator and Keys and profiles all read it here.
 */
import { t } from '../language';
import { ApiKey, isShortSecret, type KeyState, SHORT_SECRET_LENGTH } from '../shared/app-api/api';
import type { AdoptionApi } from '../shared/app-api/client';
import { createEmitter, type Disposer } from '../shared/basics/emitter';
import { describeIssues } from '../shared/basics/errors';

export type KeyTest = { result: 'valid' | 'invalid' | 'unreachable' | 'error'; message: string };

type Known = { state: KeyState; at: number };

export class KeysStore {
  byProfile = $state<Record<string, Known>>({});
  busy = $state(false);
  // The sentences are kept as how to say them, so they follow the language shown.
  #message = $state<(() => string) | null>(null);
  #error = $state<(() => string) | null>(null);
  #warning = $state<(() => string) | null>(null);
  lastTest = $state<KeyTest | null>(null);
  /** The profile the message, error and test result are about. */
  about = $state<string | null>(null);
  #unsubscribe: (() => void) | null = null;
  /** Counts the core's key events, so an answer does not overwrite a newer event. */
  #events = 0;
  readonly #changed = createEmitter<[profileId: string, state: KeyState]>();

  constructor(
    private readonly api: AdoptionApi,
    /** Told when this window saved a key (sending may resume). */
    private readonly onSaved: (profileId: string) => void = () => {},
  ) {}

  start(): void {
    this.#unsubscribe ??= this.api.on('key', ({ profileId, state, at }) => {
      this.#events += 1;
      this.#apply(profileId, { state, at });
    });
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  /** What the last action did ("Key saved."), in the language shown. */
  get message(): string | null {
    return this.#message?.() ?? null;
  }

  /** Why the last action failed, in the language shown. */
  get error(): string | null {
    return this.#error?.() ?? null;
  }

  /** What staff should know of the key just saved (it is short: easy to guess, hidden as a word only). */
  get warning(): string | null {
    return this.#warning?.() ?? null;
  }

  /** The key state, null until known. */
  state(profileId: string): KeyState | null {
    return this.byProfile[profileId]?.state ?? null;
  }

  /** A key is saved for the profile's address (whatever the service made of it). */
  saved(profileId: string): boolean {
    const state = this.state(profileId);
    return state === 'saved' || state === 'accepted' || state === 'refused';
  }

  /** Staff must give a key: none is saved, or the service refused the saved one. */
  needsKey(profileId: string): boolean {
    const state = this.state(profileId);
    return state === 'none' || state === 'refused';
  }

  /** Called whenever a profile's key state changes. */
  onChange(listener: (profileId: string, state: KeyState) => void): Disposer {
    return this.#changed.on(listener);
  }

  async refresh(profileId: string): Promise<void> {
    const events = this.#events;
    const result = await this.api.keyStatus({ profileId });
    if (!result.ok) {
      const { message } = result.error;
      this.#error = () => message;
      return;
    }
    const known = this.byProfile[profileId];
    // An event that came meanwhile is newer than this answer.
    if (events !== this.#events && known && known.at > result.data.at) return;
    this.#apply(profileId, { state: result.data.state, at: result.data.at });
  }

  /** Saves (or replaces) the key. Returns true when saved. */
  async save(profileId: string, key: string): Promise<boolean> {
    this.#reset(profileId);
    const parsed = ApiKey.safeParse(key);
    if (!parsed.success) {
      const reason = describeIssues(parsed.error.issues, { paths: false, max: 1 });
      this.#error = () => (reason ? t('shell.keyInvalid', { reason }) : t('shell.keyInvalidUnknown'));
      return false;
    }
    this.busy = true;
    const events = this.#events;
    const result = await this.api.setKey({ profileId, key: parsed.data });
    this.busy = false;
    if (!result.ok) {
      const { message } = result.error;
      this.#error = () => t('shell.keyNotSaved', { reason: message });
      return false;
    }
    // The core says so too (its `key` event); until it is here, or if it already said more, it wins.
    if (events === this.#events) this.#apply(profileId, { state: 'saved', at: this.byProfile[profileId]?.at ?? 0 });
    this.#message = () => t('shell.keySaved');
    if (isShortSecret(parsed.data)) this.#warning = () => t('shell.keyShort', { min: SHORT_SECRET_LENGTH });
    this.onSaved(profileId);
    return true;
  }

  async remove(profileId: string): Promise<void> {
    this.#reset(profileId);
    this.busy = true;
    const events = this.#events;
    const result = await this.api.clearKey({ profileId });
    this.busy = false;
    if (!result.ok) {
      const { message } = result.error;
      this.#error = () => t('shell.keyNotRemoved', { reason: message });
      return;
    }
    if (events === this.#events) this.#apply(profileId, { state: 'none', at: this.byProfile[profileId]?.at ?? 0 });
    this.#message = () => t('shell.keyRemoved');
  }

  async test(profileId: string): Promise<void> {
    this.#reset(profileId);
    this.busy = true;
    const result = await this.api.testKey({ profileId });
    this.busy = false;
    this.lastTest = result.ok ? result.data : { result: 'error', message: result.error.message };
  }

  #apply(profileId: string, known: Known): void {
    const previous = this.byProfile[profileId]?.state;
    this.byProfile[profileId] = known;
    if (previous !== known.state) this.#changed.emit(profileId, known.state);
  }

  #reset(profileId: string): void {
    this.about = profileId;
    this.#message = null;
    this.#error = null;
    this.#warning = null;
    this.lastTest = null;
  }
}
