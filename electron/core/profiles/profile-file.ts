/**
 * The on-disk format of the staff's profile settings (`profiles.json` in the app's data
 * folder): a schema version, the staff's own profiles, and their edits to the built-ins.
 * Older versions are brought up to date by ordered migrations; entries that fail
 * validation (e.g. after a hand edit) are dropped and reported, never fatal.
 *
 * History:
 * - v0 (early releases): a bare JSON array of `{ name, url }`, no id, no colour.
 * - v1: `{ version: 1, custom: [{ id, name, baseUrl, color }], builtIns: { <id>: { baseUrl?, color? } } }`.
 *   Later v1 files add `removedIds`: the ids of removed profiles, never given to another
 *   profile (a database or keychain entry left under an old id must never become a new
 *   profile's). Optional, so files without it still read as v1.
 */
import { z } from 'zod';
import { describeIssues } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import { BaseUrl, Profile, ProfileColor, ProfileId } from '../../../src/shared/records/profile';
import { BUILT_IN_IDS, type BuiltInId, isBuiltInId } from './built-in-profiles';
import { makeProfileId } from './profile-id';

export const PROFILE_FILE_NAME = 'profiles.json';
export const CURRENT_PROFILE_FILE_VERSION = 1;

export const StoredProfile = z.object({
  id: ProfileId,
  name: Profile.shape.name,
  baseUrl: BaseUrl,
  color: ProfileColor,
});
export type StoredProfile = z.output<typeof StoredProfile>;

export const BuiltInEdit = z.object({ baseUrl: z.optional(BaseUrl), color: z.optional(ProfileColor) });
export type BuiltInEdit = z.output<typeof BuiltInEdit>;

export interface ProfileFile {
  version: typeof CURRENT_PROFILE_FILE_VERSION;
  custom: StoredProfile[];
  builtIns: Partial<Record<BuiltInId, BuiltInEdit>>;
  /** Ids of removed profiles: never reused. */
  removedIds: string[];
}

export const emptyProfileFile = (): ProfileFile => ({
  version: CURRENT_PROFILE_FILE_VERSION,
  custom: [],
  builtIns: {},
  removedIds: [],
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Migration `i` turns version `i` into version `i + 1`. Lenient: bad entries pass through to validation. */
export const MIGRATIONS: readonly ((data: unknown) => unknown)[] = [
  function v0ToV1(data) {
    const entries = Array.isArray(data) ? data : [];
    const taken = new Set<string>(BUILT_IN_IDS);
    const custom = entries.map((entry: unknown) => {
      if (!isRecord(entry)) return entry;
      const name = typeof entry.name === 'string' ? entry.name : '';
      const id = makeProfileId(name, taken);
      taken.add(id);
      return { id, name: entry.name, baseUrl: entry.url, color: 'blue' };
    });
    return { version: 1, custom, builtIns: {} };
  },
];

export type DecodedProfileFile =
  | { kind: 'ok'; file: ProfileFile; dropped: string[]; migratedFrom: number | null }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'future'; version: number };

function versionOf(data: unknown): number | null {
  if (Array.isArray(data)) return 0;
  if (isRecord(data) && typeof data.version === 'number' && Number.isInteger(data.version) && data.version >= 0) {
    return data.version;
  }
  return null;
}

function describeEntry(entry: unknown, index: number): string {
  const name = isRecord(entry) && typeof entry.name === 'string' && entry.name.trim() ? `"${entry.name.trim()}"` : null;
  return name ?? t('coreProfiles.entryNumbered', { number: index + 1 });
}

/** Validates an up-to-date file entry by entry. */
function validateCurrent(data: Record<string, unknown>): { file: ProfileFile; dropped: string[] } | null {
  const rawCustom = data.custom ?? [];
  const rawBuiltIns = data.builtIns ?? {};
  if (!Array.isArray(rawCustom) || !isRecord(rawBuiltIns)) return null;
  const dropped: string[] = [];
  const file = emptyProfileFile();
  const seen = new Set<string>(BUILT_IN_IDS);
  rawCustom.forEach((entry: unknown, index) => {
    const parsed = StoredProfile.safeParse(entry);
    if (!parsed.success)
      dropped.push(
        // An entry and what is wrong with it: "entry 2 (name: …)", in any language.
        `${describeEntry(entry, index)} (${describeIssues(parsed.error.issues)})`,
      );
    else if (seen.has(parsed.data.id))
      dropped.push(t('coreProfiles.entryIdUsed', { entry: describeEntry(entry, index), id: parsed.data.id }));
    else {
      seen.add(parsed.data.id);
      file.custom.push(parsed.data);
    }
  });
  const rawRemoved: unknown[] = Array.isArray(data.removedIds) ? data.removedIds : [];
  file.removedIds = rawRemoved.filter((id): id is string => ProfileId.safeParse(id).success);
  for (const [id, edit] of Object.entries(rawBuiltIns)) {
    if (!isBuiltInId(id)) continue;
    const parsed = BuiltInEdit.safeParse(edit);
    if (parsed.success) file.builtIns[id] = parsed.data;
    else dropped.push(t('coreProfiles.builtInChanges', { id, issues: describeIssues(parsed.error.issues) }));
  }
  return { file, dropped };
}

export function decodeProfileFile(text: string): DecodedProfileFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return {
      kind: 'corrupt',
      reason: text.trim() === '' ? t('coreProfiles.corruptEmpty') : t('coreProfiles.corruptNotJson'),
    };
  }
  const version = versionOf(data);
  if (version === null) return { kind: 'corrupt', reason: t('coreProfiles.corruptNoVersion') };
  if (version > CURRENT_PROFILE_FILE_VERSION) return { kind: 'future', version };
  for (let step = version; step < CURRENT_PROFILE_FILE_VERSION; step += 1) {
    const migrate = MIGRATIONS[step];
    if (!migrate) return { kind: 'corrupt', reason: t('coreProfiles.corruptNoMigration', { version: step }) };
    data = migrate(data);
  }
  const validated = isRecord(data) ? validateCurrent(data) : null;
  if (!validated) return { kind: 'corrupt', reason: t('coreProfiles.corruptNotExpected') };
  return { kind: 'ok', ...validated, migratedFrom: version < CURRENT_PROFILE_FILE_VERSION ? version : null };
}

export function encodeProfileFile(file: ProfileFile): string {
  // `removedIds` is written once there is one, so files of staff who never removed one stay as they were.
  const { removedIds, ...rest } = file;
  return `${JSON.stringify(removedIds.length ? file : rest, null, 2)}\n`;
}
