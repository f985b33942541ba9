/**
 * API keys per profile. Write-only: a key goes straight to the core's keychain and is never
 * kept, echoed or shown; the store only knows whether one is saved.
 */
import { ApiKey } from '../shared/api';
import type { AdoptionApi } from '../shared/client';

export type KeyTest = { result: 'valid' | 'invalid' | 'unreachable' | 'error'; message: string };

export class KeysStore {
  hasKey = $state<Record<string, boolean>>({});
  busy = $state(false);
  message = $state<string | null>(null);
  error = $state<string | null>(null);
  lastTest = $state<KeyTest | null>(null);
  /** The profile the message, error and test result are about. */
  about = $state<string | null>(null);

  constructor(private readonly api: AdoptionApi) {}

  async refresh(profileId: string): Promise<void> {
    const result = await this.api.hasKey({ profileId });
    if (result.ok) this.hasKey[profileId] = result.data.hasKey;
    else this.error = result.error.message;
  }

  /** Saves (or replaces) the key. Returns true when saved. */
  async save(profileId: string, key: string): Promise<boolean> {
    this.#reset(profileId);
    const parsed = ApiKey.safeParse(key);
    if (!parsed.success) {
      this.error = `Key not saved: ${parsed.error.issues[0]?.message ?? 'it is not a valid key'}.`;
      return false;
    }
    this.busy = true;
    const result = await this.api.setKey({ profileId, key: parsed.data });
    this.busy = false;
    if (!result.ok) {
      this.error = `Key not saved: ${result.error.message}`;
      return false;
    }
    this.hasKey[profileId] = true;
    this.message = 'Key saved.';
    return true;
  }

  async remove(profileId: string): Promise<void> {
    this.#reset(profileId);
    this.busy = true;
    const result = await this.api.clearKey({ profileId });
    this.busy = false;
    if (!result.ok) {
      this.error = `Key not removed: ${result.error.message}`;
      return;
    }
    this.hasKey[profileId] = false;
    this.message = 'Key removed.';
  }

  async test(profileId: string): Promise<void> {
    this.#reset(profileId);
    this.busy = true;
    const result = await this.api.testKey({ profileId });
    this.busy = false;
    this.lastTest = result.ok ? result.data : { result: 'error', message: result.error.message };
  }

  #reset(profileId: string): void {
    this.about = profileId;
    this.message = null;
    this.error = null;
    this.lastTest = null;
  }
}
