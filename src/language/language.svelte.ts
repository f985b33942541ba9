/**
 * Which language the window shows, and the one owner of that rule (docs/architecture.md):
 * staff's choice in Keys and profiles, remembered in this window's localStorage beside the
 * active profile; by default the system's language (the desktop app: Electron's
 * `app.getPreferredSystemLanguages()` through the core; the browser host: the browser's
 * `navigator.languages`), English when the app does not have it. The chosen language's
 * catalogue is loaded before it shows (Spanish is a chunk of its own), `<html lang>` follows,
 * and the core is told so that its messages follow too.
 */
import type { AdoptionApi } from '../shared/app-api/client';
import { createEmitter, type Disposer } from '../shared/basics/emitter';
import {
  currentLanguage,
  type Language,
  LanguageChoice,
  LANGUAGE_NAMES,
  matchLanguage,
  type StaffLanguage,
} from '../shared/i18n';
import { showLanguage } from './messages';

export const LANGUAGE_STORAGE_KEY = 'adoption-desk.language';

export class LanguageStore {
  /** Staff's choice: a language, or the system's. */
  choice = $state<LanguageChoice>('system');
  /** The language the system prefers, of those the app has. */
  system = $state<StaffLanguage>('en');
  /** The language shown (its catalogue loaded). */
  language = $state<Language>(currentLanguage());
  /** Why a choice could not be applied (its catalogue did not load), if it could not. */
  error = $state<string | null>(null);
  #started: Promise<void> | null = null;
  readonly #changed = createEmitter<[language: Language]>();

  constructor(
    private readonly api: Pick<AdoptionApi, 'systemLanguages' | 'useLanguage'>,
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'>,
    private readonly browserLanguages: () => readonly string[],
    private readonly documentElement: { lang: string } | null,
  ) {}

  /** The languages staff can choose, each named in itself. */
  get options(): { value: LanguageChoice; label: string }[] {
    return (Object.keys(LANGUAGE_NAMES) as (keyof typeof LANGUAGE_NAMES)[]).map((value) => ({
      value,
      label: LANGUAGE_NAMES[value],
    }));
  }

  /**
   * Calls `listener` each time another language is shown (after the core was told): what the window
   * keeps of the core's words (the updates' status, say) is read again in it.
   */
  onChange(listener: (language: Language) => void): Disposer {
    return this.#changed.on(listener);
  }

  /** Reads the remembered choice and the system's languages, and shows the language they give (once). */
  start(): Promise<void> {
    return (this.#started ??= this.#start());
  }

  async #start(): Promise<void> {
    const stored = LanguageChoice.safeParse(this.#read());
    this.choice = stored.success ? stored.data : 'system';
    const fromSystem = await this.api.systemLanguages({});
    const preferred = fromSystem.ok && fromSystem.data.languages ? fromSystem.data.languages : this.browserLanguages();
    this.system = matchLanguage(preferred);
    await this.#show(this.choice === 'system' ? this.system : this.choice);
  }

  /** Staff chose `choice`: remembered, and shown once its catalogue is loaded. */
  async choose(choice: LanguageChoice): Promise<void> {
    this.choice = choice;
    try {
      this.storage.setItem(LANGUAGE_STORAGE_KEY, choice);
    } catch {
      // Storage refused (private mode, full): the choice holds for this window's life.
    }
    await this.#show(choice === 'system' ? this.system : choice);
  }

  #read(): string | null {
    try {
      return this.storage.getItem(LANGUAGE_STORAGE_KEY);
    } catch {
      return null;
    }
  }

  async #show(language: Language): Promise<void> {
    try {
      await showLanguage(language);
      this.error = null;
    } catch (error) {
      // A chunk that did not load (the app was updated underneath): the window stays as it was.
      this.error = error instanceof Error ? error.message : String(error);
      return;
    }
    const before = this.language;
    this.language = currentLanguage();
    if (this.documentElement) this.documentElement.lang = this.language;
    await this.api.useLanguage({ language: this.language });
    if (this.language !== before) this.#changed.emit(this.language);
  }
}
