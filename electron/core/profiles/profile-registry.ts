/**
 * The profiles: the built-ins (see `built-in-profiles.ts`) and the staff's own, kept in
 * `profiles.json` in the app's data folder (format and migrations: `profile-file.ts`).
 * Never throws on a bad file: a corrupt, unreadable or newer-version file is set aside, the
 * built-ins are restored, and `list().notice` says so in plain language.
 */
import { basename, join } from 'node:path';
import { createEmitter, type Disposer } from '../../../src/shared/basics/emitter';
import { describeIssues } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import { type Profile, ProfileInput, type ProfileList } from '../../../src/shared/records/profile';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import { fileTimestamp, nodeSettingsFs, type SettingsFs, writeFileAtomic } from '../data-folder';
import { type BuiltInProfiles, type BuiltInSource, isBuiltInId, loadBuiltInProfiles } from './built-in-profiles';
import {
  decodeProfileFile,
  emptyProfileFile,
  encodeProfileFile,
  PROFILE_FILE_NAME,
  type ProfileFile,
} from './profile-file';
import { makeProfileId } from './profile-id';

export interface ProfileRegistryOptions {
  /** The app's data folder; `profiles.json` lives there. */
  dataDir: string;
  /** `{ file: <resources>/profiles.json }` in the app, or `{ settings }` in tests. */
  builtIns: BuiltInSource;
  /** The Local demo address (default `http://127.0.0.1:4010/v1`), for a service on another port. */
  localDemoUrl?: string;
  fs?: SettingsFs;
  /** Clock for the set-aside file names. */
  now?: () => number;
}

export type ProfileListener = (list: ProfileList) => void;

export class ProfileRegistry {
  readonly filePath: string;
  readonly #fs: SettingsFs;
  readonly #now: () => number;
  readonly #builtIns: readonly Profile[];
  readonly #listeners = createEmitter<[list: ProfileList]>();
  #file: ProfileFile = emptyProfileFile();
  #notice: string | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  /** The organisation's `updates` settings as the built-ins' source gave them (core/updates reads them). */
  readonly organisationUpdates: BuiltInProfiles['updates'];

  private constructor(
    options: ProfileRegistryOptions,
    builtIns: readonly Profile[],
    updates: BuiltInProfiles['updates'],
  ) {
    this.organisationUpdates = updates;
    this.filePath = join(options.dataDir, PROFILE_FILE_NAME);
    this.#fs = options.fs ?? nodeSettingsFs;
    this.#now = options.now ?? Date.now;
    this.#builtIns = builtIns;
  }

  static async open(options: ProfileRegistryOptions): Promise<ProfileRegistry> {
    const fs = options.fs ?? nodeSettingsFs;
    const builtIns = await loadBuiltInProfiles(options.builtIns, { localDemoUrl: options.localDemoUrl, fs });
    const store = new ProfileRegistry(options, builtIns.profiles, builtIns.updates);
    await fs.mkdir(options.dataDir, { recursive: true, mode: 0o700 }).catch(() => undefined);
    const problems = [...builtIns.problems, ...(await store.#load())];
    store.#notice = problems.length ? problems.join(' ') : null;
    return store;
  }

  /** Built-ins first (Production, Staging, Local demo), then the staff's own in the order added. */
  list(): ProfileList {
    return { profiles: this.#profiles(), notice: this.#notice };
  }

  /** The ids of the profiles staff removed (never given out again). */
  get removedIds(): readonly string[] {
    return this.#file.removedIds;
  }

  get(id: string): Profile | null {
    return this.#profiles().find((profile) => profile.id === id) ?? null;
  }

  /**
   * Adds (no `id`) or edits a profile. Built-ins keep their name; their colour can be
   * changed, and their address too unless the organisation set it (`addressLocked`). New
   * profiles get an id made from the name.
   */
  save(input: ProfileInput): Promise<Result<Profile>> {
    return this.#exclusive(async () => {
      const parsed = ProfileInput.safeParse(input);
      if (!parsed.success) {
        const reasons = describeIssues(parsed.error.issues, { paths: false });
        return err('invalid_request', t('coreProfiles.notSaved', { reasons }));
      }
      const { id, name, baseUrl, color } = parsed.data;
      const duplicate = this.#profiles().find((p) => p.id !== id && p.name.toLowerCase() === name.toLowerCase());
      if (duplicate) return err('invalid_request', t('coreProfiles.duplicateName', { name: duplicate.name }));
      const next: ProfileFile = structuredClone(this.#file);
      let savedId: string;
      if (id !== undefined && isBuiltInId(id)) {
        const builtIn = this.#builtIns.find((p) => p.id === id);
        if (builtIn && builtIn.name !== name) {
          return err('invalid_request', t('coreProfiles.builtInName', { name: builtIn.name }));
        }
        if (builtIn?.addressLocked && builtIn.baseUrl !== baseUrl) {
          return err(
            'invalid_request',
            t('coreProfiles.addressLocked', { name: builtIn.name, address: builtIn.baseUrl ?? '' }),
          );
        }
        next.builtIns[id] = builtIn?.addressLocked ? { color } : { baseUrl, color };
        savedId = id;
      } else if (id !== undefined) {
        const index = next.custom.findIndex((p) => p.id === id);
        if (index < 0) return err('not_found', t('coreProfiles.notSavedNoProfile'));
        next.custom[index] = { id, name, baseUrl, color };
        savedId = id;
      } else {
        const taken = [...this.#profiles().map((p) => p.id), ...this.#file.removedIds];
        savedId = makeProfileId(name, new Set(taken));
        next.custom.push({ id: savedId, name, baseUrl, color });
      }
      const written = await this.#commit(next, 'saved');
      if (!written.ok) return written;
      const saved = this.get(savedId);
      return saved ? ok(saved) : err('internal', t('coreProfiles.savedNotFound'));
    });
  }

  /** Removes one of the staff's own profiles (its id is never given out again); the built-ins cannot be removed. */
  remove(id: string): Promise<Result<{ removed: true }>> {
    return this.#exclusive(async () => {
      if (isBuiltInId(id)) return err('invalid_request', t('coreProfiles.builtInsNotRemovable'));
      if (!this.#file.custom.some((p) => p.id === id)) {
        return err('not_found', t('coreProfiles.notRemovedNoProfile'));
      }
      const next: ProfileFile = {
        ...this.#file,
        custom: this.#file.custom.filter((p) => p.id !== id),
        removedIds: [...this.#file.removedIds, id],
      };
      const written = await this.#commit(next, 'removed');
      return written.ok ? ok({ removed: true as const }) : written;
    });
  }

  /** Calls `listener` with the new list after every change; returns the unsubscribe function. */
  onChange(listener: ProfileListener): Disposer {
    return this.#listeners.on(listener);
  }

  #profiles(): Profile[] {
    const builtIns = this.#builtIns.map((profile) => {
      const edit = this.#file.builtIns[profile.id as keyof ProfileFile['builtIns']];
      // An organisation's address wins over an edit saved before it was set.
      const baseUrl = profile.addressLocked ? profile.baseUrl : (edit?.baseUrl ?? profile.baseUrl);
      return { ...profile, baseUrl, color: edit?.color ?? profile.color };
    });
    const custom = this.#file.custom.map((p): Profile => ({ ...p, kind: 'custom', builtIn: false }));
    return [...builtIns, ...custom];
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #commit(next: ProfileFile, action: 'saved' | 'removed'): Promise<Result<true>> {
    try {
      await writeFileAtomic(this.#fs, this.filePath, encodeProfileFile(next));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? t('coreProfiles.unknownError');
      return err('internal', t('coreProfiles.commitFailed', { action, code }));
    }
    this.#file = next;
    // A failing listener is reported; it breaks neither saving nor the other listeners.
    this.#listeners.emit(this.list());
    return ok(true);
  }

  /** Reads the file into `#file`; returns problem sentences for the notice. */
  async #load(): Promise<string[]> {
    let text: string;
    try {
      text = await this.#fs.readFile(this.filePath, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return [];
      return [await this.#restoreDefaults('unreadable', code ?? t('coreProfiles.unknownError'))];
    }
    const decoded = decodeProfileFile(text);
    if (decoded.kind === 'corrupt') return [await this.#restoreDefaults('corrupt', decoded.reason)];
    if (decoded.kind === 'future') return [await this.#restoreDefaults('future', String(decoded.version))];
    this.#file = decoded.file;
    if (decoded.dropped.length === 0 && decoded.migratedFrom === null) return [];
    const suffix = decoded.dropped.length ? 'invalid' : `v${decoded.migratedFrom}`;
    const backup = `${this.filePath}.${suffix}-${fileTimestamp(this.#now())}`;
    try {
      await this.#fs.copyFile(this.filePath, backup);
      await writeFileAtomic(this.#fs, this.filePath, encodeProfileFile(decoded.file));
    } catch {
      // The cleaned settings are in memory; the next save writes them.
    }
    if (decoded.dropped.length === 0) return [];
    return [
      t('coreProfiles.entriesDropped', {
        count: decoded.dropped.length,
        entries: decoded.dropped.join('; '),
        file: basename(backup),
      }),
    ];
  }

  /** Sets the bad file aside, starts from the built-ins only, and says what happened. */
  async #restoreDefaults(why: 'unreadable' | 'corrupt' | 'future', detail: string): Promise<string> {
    this.#file = emptyProfileFile();
    const aside = `${this.filePath}.corrupt-${fileTimestamp(this.#now())}`;
    try {
      await this.#fs.rename(this.filePath, aside);
    } catch {
      return t('coreProfiles.settingsNotSetAside', { why, detail });
    }
    await writeFileAtomic(this.#fs, this.filePath, encodeProfileFile(this.#file)).catch(() => undefined);
    return t('coreProfiles.settingsSetAside', { why, detail, file: basename(aside) });
  }
}
