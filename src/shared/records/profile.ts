/** Service profiles (Production, Staging, Local demo, and the staff's own). */
import { t } from '../i18n';
import { z } from '../basics/zod';

export const PROFILE_COLORS = ['red', 'amber', 'green', 'blue', 'purple', 'grey'] as const;
export const ProfileColor = z.enum(PROFILE_COLORS);
export type ProfileColor = z.infer<typeof ProfileColor>;

export const PROFILE_KINDS = ['production', 'staging', 'demo', 'custom'] as const;
export const ProfileKind = z.enum(PROFILE_KINDS);
export type ProfileKind = z.infer<typeof ProfileKind>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Normalises a service base address: absolute, `https://` (plain `http://` only for
 * loopback hosts), no credentials, query or fragment, path ending in `/v1` with no
 * trailing slash. Returns the normalised URL or a message saying what is wrong.
 */
export function normaliseBaseUrl(input: string): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, message: t('contract.addressAbsolute') };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    return { ok: false, message: t('contract.addressHttps') };
  }
  if (url.username || url.password) return { ok: false, message: t('contract.addressCredentials') };
  if (url.search || url.hash) return { ok: false, message: t('contract.addressQuery') };
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) return { ok: false, message: t('contract.addressPath') };
  return { ok: true, url: `${url.origin}${path}` };
}

export const BaseUrl = z.pipe(
  z.string(),
  z.transform((value: string, ctx) => {
    const result = normaliseBaseUrl(value);
    if (result.ok) return result.url;
    ctx.issues.push({
      code: 'custom',
      message: t('contract.addressInvalid', { problem: result.message }),
      input: value,
    });
    return z.NEVER;
  }),
);

export const ProfileId = z
  .string()
  .check(z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: () => t('contract.profileIdForm') }));

export const Profile = z.object({
  id: ProfileId,
  name: z.string().check(z.trim(), z.minLength(1, { error: () => t('contract.nameRequired') }), z.maxLength(60)),
  /** null: not configured (a built-in profile whose address the organisation did not set). */
  baseUrl: z.nullable(BaseUrl),
  color: ProfileColor,
  kind: ProfileKind,
  builtIn: z.boolean(),
  /**
   * true: the organisation set this address (resources/profiles.json): shown read-only, and
   * the core refuses to change it. Absent or false: staff may change it (its key is then cleared).
   */
  addressLocked: z.optional(z.boolean()),
});
export type Profile = z.output<typeof Profile>;

/** What staff send to add or edit a profile; the id is made by the core for new ones. */
export const ProfileInput = z.object({
  id: z.optional(ProfileId),
  name: Profile.shape.name,
  baseUrl: BaseUrl,
  color: ProfileColor,
});
export type ProfileInput = z.input<typeof ProfileInput>;

export const ProfileList = z.object({
  profiles: z.array(Profile),
  /** A notice to show, e.g. the profile file was corrupt and defaults were restored. */
  notice: z.nullable(z.string()),
});
export type ProfileList = z.infer<typeof ProfileList>;
