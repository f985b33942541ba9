/**
 * Whether the installed app updates itself, and from where, as the organisation says: in its
 * policies (`UpdateMode`: "on" | "off", `UpdateFeedUrl`) or in its `profiles.json`
 * (`"updates": { "enabled": false }` or `{ "url": "https://updates.example.org/adoption-desk/" }`).
 * Without a word from it, updates come from the address the installer was built with (electron-
 * builder's `publish`, kept in `app-update.yml`); without that either, updates are off.
 */
import { z } from 'zod';
import { describeIssues } from '../../../src/shared/errors';
import { t, tEnglish } from '../../../src/shared/i18n';

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

/**
 * Updates off, and why in the language staff read when they look (a getter: the core's language
 * follows the window, and the reason is read each time the status is sent).
 */
const off = (reason: () => string): UpdateSettings => ({
  enabled: false,
  get reason() {
    return reason();
  },
});

const isLoopback = (host: string) => host === '127.0.0.1' || host === 'localhost' || host === '[::1]';

/** The feed address if it is one the app may fetch code from: https, or http on this computer (tests). */
type FeedProblem = 'notAddress' | 'https' | 'credentials';

function feedAddress(raw: string): { ok: true; url: string } | { ok: false; problem: FeedProblem } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: 'notAddress' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    return { ok: false, problem: 'https' };
  if (url.username || url.password) return { ok: false, problem: 'credentials' };
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
      settings: off(() => t('coreUpdates.settingsForm', { source: options.sourceName })),
      problems: [
        tEnglish('coreUpdates.settingsFormProblem', {
          source: options.sourceName,
          issues: describeIssues(parsed.error.issues),
        }),
      ],
    };
  }
  const { enabled, url } = parsed.data;
  if (enabled === false) return { settings: off(() => t('coreUpdates.switchedOff')), problems: [] };
  if (url) {
    const feed = feedAddress(url);
    if (!feed.ok) {
      const args = { source: options.sourceName, problem: feed.problem };
      return {
        settings: off(() => t('coreUpdates.badAddress', args)),
        problems: [tEnglish('coreUpdates.badAddress', args)],
      };
    }
    return { settings: { enabled: true, feedUrl: feed.url }, problems: [] };
  }
  if (!options.builtFeed) return { settings: off(() => t('coreUpdates.noAddress')), problems: [] };
  return { settings: { enabled: true, feedUrl: null }, problems: [] };
}
