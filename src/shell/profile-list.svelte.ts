/**
 * The service profiles and which one is active. In localStorage (profile ids only; never a
 * key): the profile staff chose, and the profile last shown, which start-up assumes.
 */
import { t } from '../language';
import type { AdoptionApi } from '../shared/app-api/client';
import type { Profile, ProfileInput, ProfileList } from '../shared/records/profile';

/** The profile staff chose last (it is picked first when the list has it). */
export const ACTIVE_PROFILE_KEY = 'adoption-desk.active-profile';
/** The profile shown last, chosen or picked: only a start-up hint, it picks nothing. */
export const SHOWN_PROFILE_KEY = 'adoption-desk.shown-profile';

/** A profile's kind as the band shows it, in capitals ("PRODUCTION" / "PRODUCCIÓN"). */
export const kindBadge = (kind: Profile['kind']): string => t('shell.kindBadge', { kind });

/** A profile's kind in a sentence ("production" / "producción"). The profile's name is data, never translated. */
export const kindLabel = (kind: Profile['kind']): string => t('shell.kind', { kind });

export class ProfileListStore {
  profiles = $state<Profile[]>([]);
  activeId = $state<string | null>(null);
  notice = $state<string | null>(null);
  /** The profile staff added last, while it is the one shown (for the "added" message). */
  added = $state<Profile | null>(null);
  error = $state<string | null>(null);
  loaded = $state(false);
  /**
   * Until the list is here: the profile remembered from the last run, assumed so its saved
   * data can be shown while the list is on its way (see `assume`). Null once the list is here.
   */
  assumedId = $state<string | null>(null);
  readonly active: Profile | null = $derived(this.profiles.find((p) => p.id === this.activeId) ?? null);
  /** The profile whose data is shown: the active one, or the assumed one before the list is here. */
  readonly shownId: string | null = $derived(this.activeId ?? this.assumedId);
  #unsubscribe: (() => void) | null = null;
  #listed = false;

  constructor(
    private readonly api: AdoptionApi,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
  ) {}

  async load(): Promise<void> {
    this.#unsubscribe ??= this.api.on('profiles', (list) => this.#apply(list));
    const result = await this.api.listProfiles({});
    if (!result.ok) {
      this.error = result.error.message;
      this.assumedId = null;
      return;
    }
    this.#apply(result.data);
    this.loaded = true;
  }

  /** The profile that was active when the app last ran (kept in localStorage), if any. */
  remembered(): string | null {
    return this.storage.getItem(SHOWN_PROFILE_KEY) ?? this.storage.getItem(ACTIVE_PROFILE_KEY);
  }

  /**
   * Shows `profileId` (the remembered one) before the list is here. Returns false, changing
   * nothing, once the list or an error is here: the list decides then. When the list comes
   * without that profile, the active one is picked as usual and the assumption is dropped.
   */
  assume(profileId: string): boolean {
    if (this.#listed || this.error !== null) return false;
    this.assumedId = profileId;
    return true;
  }

  select(profileId: string): void {
    if (!this.profiles.some((p) => p.id === profileId)) return;
    if (this.added?.id !== profileId) this.added = null;
    this.activeId = profileId;
    this.storage.setItem(ACTIVE_PROFILE_KEY, profileId);
    this.storage.setItem(SHOWN_PROFILE_KEY, profileId);
  }

  /** Adds or edits a profile; returns an error message or null. */
  async save(input: ProfileInput): Promise<string | null> {
    const result = await this.api.saveProfile(input);
    if (!result.ok) return result.error.message;
    const others = this.profiles.filter((p) => p.id !== result.data.id);
    const index = this.profiles.findIndex((p) => p.id === result.data.id);
    this.profiles =
      index < 0 ? [...others, result.data] : this.profiles.map((p) => (p.id === result.data.id ? result.data : p));
    return null;
  }

  /** Adds a profile of staff's own and shows it; returns an error message or null. */
  async add(input: Omit<ProfileInput, 'id'>): Promise<string | null> {
    const result = await this.api.saveProfile(input);
    if (!result.ok) return result.error.message;
    this.profiles = [...this.profiles.filter((p) => p.id !== result.data.id), result.data];
    this.added = result.data;
    this.select(result.data.id);
    return null;
  }

  async remove(profileId: string): Promise<string | null> {
    const result = await this.api.removeProfile({ profileId });
    if (!result.ok) return result.error.message;
    this.#apply({ profiles: this.profiles.filter((p) => p.id !== profileId), notice: this.notice });
    return null;
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }

  #apply(list: ProfileList): void {
    this.#listed = true;
    this.assumedId = null;
    this.profiles = list.profiles;
    this.notice = list.notice;
    this.error = null;
    if (this.activeId && list.profiles.some((p) => p.id === this.activeId)) return;
    const stored = this.storage.getItem(ACTIVE_PROFILE_KEY);
    const pick =
      list.profiles.find((p) => p.id === stored) ??
      list.profiles.find((p) => p.kind === 'production' && p.baseUrl) ??
      list.profiles.find((p) => p.baseUrl) ??
      list.profiles[0];
    this.activeId = pick?.id ?? null;
    if (this.activeId) this.storage.setItem(SHOWN_PROFILE_KEY, this.activeId);
  }
}
