/**
 * Whether the installed app updates itself, and from where, as the organisation says: in its
 * policies (`UpdateMode`: "on" | "off", `UpdateFeedUrl`) or in its `profiles.json`
 * (`"updates": { "enabled": false }` or `{ "url": "https://updates.example.org/adoption-desk/" }`).
 * Without a word from it, updates come from the address the installer was built with (electron-
 * builder's `publish`, kept in `app-update.yml`); without that either, updates are off.
 */
import { z } from 'zod';
import { describeIssues } from '../../../src/shared/errors';

/** The `updates` block of profiles.json (and what the policies amount to). */
export const UpdatesBlock = z.object({
  enabled: z.boolean().optional(),
  url: z.string().nullable().optional(),
});
export type UpdatesBlock = z.infer<typeof UpdatesBlock>;

export type UpdateSettings =
  | { enabled: false; reason: string }
  /** `feedUrl` null: the address the installer was built with. */
  | { enabled: true; feedUrl: string | null };

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';

/** The feed address if it is one the app may fetch code from: https, or http on this computer (tests). */
function feedAddress(raw: string): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, message: 'is not an address' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    return { ok: false, message: 'must use https://' };
  if (url.username || url.password) return { ok: false, message: 'must not contain a user name or password' };
  return { ok: true, url: url.href.endsWith('/') ? url.href : `${url.href}/` };
}

/**
 * The settings from the organisation's `updates` block (policies over the file), with a sentence
 * for anything that could not be used. An update address that cannot be used switches updates off:
 * the app never fetches its own code from somewhere nobody meant.
 */
export function readUpdateSettings(
  block: unknown,
  options: { sourceName: string; builtFeed: boolean },
): { settings: UpdateSettings; problems: string[] } {
  const parsed = UpdatesBlock.safeParse(block ?? {});
  if (!parsed.success) {
    return {
      settings: { enabled: false, reason: `${options.sourceName}: the updates settings are not in the expected form.` },
      problems: [
        `${options.sourceName}: the updates settings are not in the expected form (${describeIssues(parsed.error.issues)}); updates are off.`,
      ],
    };
  }
  const { enabled, url } = parsed.data;
  if (enabled === false)
    return { settings: { enabled: false, reason: 'Your organisation switched updates off.' }, problems: [] };
  if (url) {
    const feed = feedAddress(url);
    if (!feed.ok) {
      const message = `${options.sourceName}: the update address ${feed.message}; updates are off.`;
      return { settings: { enabled: false, reason: message }, problems: [message] };
    }
    return { settings: { enabled: true, feedUrl: feed.url }, problems: [] };
  }
  if (!options.builtFeed)
    return {
      settings: {
        enabled: false,
        reason: 'No update address is set: your IT department can set one (README, "For IT").',
      },
      problems: [],
    };
  return { settings: { enabled: true, feedUrl: null }, problems: [] };
}
