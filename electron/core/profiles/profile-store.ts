/**
 * The profiles: the built-ins (see `built-in-profiles.ts`) and the staff's own, kept in
 * `profiles.json` in the app's data folder (format and migrations: `profile-file.ts`).
 * Never throws on a bad file: a corrupt, unreadable or newer-version file is set aside, the
 * built-ins are restored, and `list().notice` says so in plain language.
 */
import { basename, join } from 'node:path';
import { describeIssues } from '../../../src/shared/errors';
import { type Profile, ProfileInput, type ProfileList } from '../../../src/shared/profile';
import { err, ok, type Result } from '../../../src/shared/result';
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

export interface ProfileStoreOptions {
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

const SETTINGS = 'The profile settings file';

export class ProfileStore {
  readonly filePath: string;
  readonly #fs: SettingsFs;
  readonly #now: () => number;
  readonly #builtIns: readonly Profile[];
  readonly #listeners = new Set<ProfileListener>();
  #file: ProfileFile = emptyProfileFile();
  #notice: string | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  /** The organisation's `updates` settings as the built-ins' source gave them (core/updates reads them). */
  readonly organisationUpdates: BuiltInProfiles['updates'];

  private constructor(options: ProfileStoreOptions, builtIns: readonly Profile[], updates: BuiltInProfiles['updates']) {
    this.organisationUpdates = updates;
    this.filePath = join(options.dataDir, PROFILE_FILE_NAME);
    this.#fs = options.fs ?? nodeSettingsFs;
    this.#now = options.now ?? Date.now;
    this.#builtIns = builtIns;
  }

  static async open(options: ProfileStoreOptions): Promise<ProfileStore> {
    const fs = options.fs ?? nodeSettingsFs;
    const builtIns = await loadBuiltInProfiles(options.builtIns, { localDemoUrl: options.localDemoUrl, fs });
    const store = new ProfileStore(options, builtIns.profiles, builtIns.updates);
    await fs.mkdir(options.dataDir, { recursive: true }).catch(() => undefined);
    const problems = [...builtIns.problems, ...(await store.#load())];
    store.#notice = problems.length ? problems.join(' ') : null;
    return store;
  }

  /** Built-ins first (Production, Staging, Local demo), then the staff's own in the order added. */
  list(): ProfileList {
    return { profiles: this.#profiles(), notice: this.#notice };
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
        return err('invalid_request', `The profile was not saved: ${reasons}.`);
      }
      const { id, name, baseUrl, color } = parsed.data;
      const duplicate = this.#profiles().find((p) => p.id !== id && p.name.toLowerCase() === name.toLowerCase());
      if (duplicate)
        return err('invalid_request', `The profile was not saved: a profile named "${duplicate.name}" already exists.`);
      const next: ProfileFile = structuredClone(this.#file);
      let savedId: string;
      if (id !== undefined && isBuiltInId(id)) {
        const builtIn = this.#builtIns.find((p) => p.id === id);
        if (builtIn && builtIn.name !== name) {
          return err('invalid_request', `The name of the built-in profile "${builtIn.name}" cannot be changed.`);
        }
        if (builtIn?.addressLocked && builtIn.baseUrl !== baseUrl) {
          return err(
            'invalid_request',
            `The ${builtIn.name} address is set by your organisation and cannot be changed here (it stays ${builtIn.baseUrl}).`,
          );
        }
        next.builtIns[id] = builtIn?.addressLocked ? { color } : { baseUrl, color };
        savedId = id;
      } else if (id !== undefined) {
        const index = next.custom.findIndex((p) => p.id === id);
        if (index < 0) return err('not_found', 'The profile was not saved: there is no profile with this id.');
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
      return saved ? ok(saved) : err('internal', 'The profile was saved but could not be found again.');
    });
  }

  /** Removes one of the staff's own profiles (its id is never given out again); the built-ins cannot be removed. */
  remove(id: string): Promise<Result<{ removed: true }>> {
    return this.#exclusive(async () => {
      if (isBuiltInId(id)) return err('invalid_request', 'The built-in profiles cannot be removed.');
      if (!this.#file.custom.some((p) => p.id === id)) {
        return err('not_found', 'The profile was not removed: there is no profile with this id.');
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
  onChange(listener: ProfileListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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

  async #commit(next: ProfileFile, verb: string): Promise<Result<true>> {
    try {
      await writeFileAtomic(this.#fs, this.filePath, encodeProfileFile(next));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      return err('internal', `The profile could not be ${verb}: the settings file could not be written (${code}).`);
    }
    this.#file = next;
    const list = this.list();
    for (const listener of this.#listeners) {
      try {
        listener(list);
      } catch {
        // A failing listener must not break saving or the other listeners.
      }
    }
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
      return [await this.#restoreDefaults(`could not be read (${code ?? 'unknown error'})`)];
    }
    const decoded = decodeProfileFile(text);
    if (decoded.kind === 'corrupt') return [await this.#restoreDefaults(`could not be read because ${decoded.reason}`)];
    if (decoded.kind === 'future') {
      return [
        await this.#restoreDefaults(`was written by a newer version of Adoption Desk (format ${decoded.version})`),
      ];
    }
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
    const what = decoded.dropped.length === 1 ? 'An entry' : `${decoded.dropped.length} entries`;
    return [
      `${what} in ${SETTINGS.toLowerCase()} could not be used and ${decoded.dropped.length === 1 ? 'was' : 'were'} left out: ` +
        `${decoded.dropped.join('; ')}. The original file was kept as ${basename(backup)}.`,
    ];
  }

  /** Sets the bad file aside, starts from the built-ins only, and says what happened. */
  async #restoreDefaults(why: string): Promise<string> {
    this.#file = emptyProfileFile();
    const aside = `${this.filePath}.corrupt-${fileTimestamp(this.#now())}`;
    try {
      await this.#fs.rename(this.filePath, aside);
    } catch {
      return `${SETTINGS} ${why} and could not be set aside; the built-in profiles are shown, and your own profiles will be replaced when you next save one.`;
    }
    await writeFileAtomic(this.#fs, this.filePath, encodeProfileFile(this.#file)).catch(() => undefined);
    return `${SETTINGS} ${why}. It was set aside as ${basename(aside)} and the built-in profiles were restored.`;
  }
}
