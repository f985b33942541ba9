/**
 * The built-in profiles: Production and Staging, whose addresses come from
 * the organisation's settings (core/managed-settings: its policies, a machine-wide file, or
 * `resources/profiles.json` packed with the app), read-only for staff where set (null means
 * "not configured", and staff may set it), and Local demo for the local
 * service. A broken resources file never crashes
 * the app: the affected profiles are "not configured" and a problem sentence explains why.
 */
import { z } from 'zod';
import { t } from '../../../src/shared/i18n';
import { normaliseBaseUrl, type Profile } from '../../../src/shared/records/profile';
import { nodeSettingsFs, type SettingsFs } from '../data-folder';

export const DEFAULT_LOCAL_DEMO_URL = 'http://127.0.0.1:4010/v1';
export const BUILT_IN_IDS = ['production', 'staging', 'local'] as const;
export type BuiltInId = (typeof BUILT_IN_IDS)[number];
export const isBuiltInId = (id: string): id is BuiltInId => (BUILT_IN_IDS as readonly string[]).includes(id);

/** The shape of `resources/profiles.json`. Addresses are checked one by one afterwards. */
export const BuiltInSettings = z.object({
  version: z.literal(1),
  production: z.object({ baseUrl: z.string().nullable() }),
  staging: z.object({ baseUrl: z.string().nullable() }),
  /** Whether and from where the installed app updates itself: read by core/updates (update-settings.ts). */
  updates: z.unknown().optional(),
});
export type BuiltInSettings = z.infer<typeof BuiltInSettings>;

/**
 * Where the built-in settings come from: a file, its text, or settings already read (policies);
 * `name` says which in staff's words ("The packaged profile settings (resources/profiles.json)"
 * by default), and `problems` are sentences about sources refused on the way
 * (core/managed-settings).
 */
export type BuiltInSource = ({ file: string } | { text: string } | { settings: unknown }) & {
  name?: string;
  problems?: readonly string[];
  /** The organisation's update settings from its policies, over the `updates` block of the settings. */
  updates?: Record<string, unknown>;
};

export interface BuiltInProfiles {
  /** Production, Staging, Local demo, in that order. */
  profiles: Profile[];
  /** Plain-language sentences about what was wrong, empty when all is well. */
  problems: string[];
  /** The organisation's `updates` block (policies over the file), unchecked, and where it came from. */
  updates: { block: unknown; sourceName: string };
}

/** The default source's name, as a sentence's subject (the core's language at start-up). */
const defaultName = (): string => t('coreProfiles.sourcePackaged');

function builtIn(id: BuiltInId, baseUrl: string | null): Profile {
  // An address the organisation set is theirs: staff see it read-only and cannot change it.
  const locked = baseUrl !== null && id !== 'local' ? { addressLocked: true } : {};
  switch (id) {
    case 'production':
      return { id, name: 'Production', baseUrl, color: 'red', kind: 'production', builtIn: true, ...locked };
    case 'staging':
      return { id, name: 'Staging', baseUrl, color: 'amber', kind: 'staging', builtIn: true, ...locked };
    case 'local':
      return { id, name: 'Local demo', baseUrl, color: 'green', kind: 'demo', builtIn: true };
  }
}

async function readSettings(
  source: BuiltInSource,
  name: string,
  fs: SettingsFs,
): Promise<{ value: unknown } | { problem: string }> {
  if ('settings' in source) return { value: source.settings };
  let text: string;
  if ('text' in source) text = source.text;
  else {
    try {
      text = await fs.readFile(source.file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT')
        return { value: { version: 1, production: { baseUrl: null }, staging: { baseUrl: null } } };
      return {
        problem: t('coreProfiles.sourceUnreadable', { source: name, code: code ?? t('coreProfiles.unknownError') }),
      };
    }
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { problem: t('coreProfiles.sourceNotJson', { source: name }) };
  }
}

export async function loadBuiltInProfiles(
  source: BuiltInSource,
  options: { localDemoUrl?: string; fs?: SettingsFs } = {},
): Promise<BuiltInProfiles> {
  const name = source.name ?? defaultName();
  const problems: string[] = [...(source.problems ?? [])];
  const read = await readSettings(source, name, options.fs ?? nodeSettingsFs);
  let settings: BuiltInSettings = { version: 1, production: { baseUrl: null }, staging: { baseUrl: null } };
  if ('problem' in read) {
    problems.push(`${read.problem} ${t('coreProfiles.builtInsNotConfigured')}`);
  } else {
    const parsed = BuiltInSettings.safeParse(read.value);
    if (parsed.success) settings = parsed.data;
    else problems.push(t('coreProfiles.sourceNotExpected', { source: name }));
  }
  const address = (label: string, raw: string | null): string | null => {
    if (raw === null) return null;
    const result = normaliseBaseUrl(raw);
    if (result.ok) return result.url;
    problems.push(t('coreProfiles.builtInAddressBad', { source: name, label, problem: result.message }));
    return null;
  };
  let localUrl = DEFAULT_LOCAL_DEMO_URL;
  if (options.localDemoUrl !== undefined) {
    const result = normaliseBaseUrl(options.localDemoUrl);
    if (result.ok) localUrl = result.url;
    else problems.push(t('coreProfiles.localDemoAddressBad', { problem: result.message, url: DEFAULT_LOCAL_DEMO_URL }));
  }
  const fileUpdates = typeof settings.updates === 'object' && settings.updates !== null ? settings.updates : {};
  const block = source.updates ? { ...fileUpdates, ...source.updates } : settings.updates;
  return {
    profiles: [
      builtIn('production', address('Production', settings.production.baseUrl)),
      builtIn('staging', address('Staging', settings.staging.baseUrl)),
      builtIn('local', localUrl),
    ],
    problems,
    updates: { block, sourceName: name },
  };
}
