/**
 * Whether the installed app updates itself, and from where, as the organisation says: in its
 * policies (`UpdateMode`: "on" | "off", `UpdateFeedUrl`) or in its `profiles.json`
 * (`"updates": { "enabled": false }` or `{ "url": "https://updates.example.org/adoption-desk/" }`).
 * Only the organisation's address is ever used: without one, updates are off (the address
 * electron-builder writes into installers, `resources/app-update.yml`, is never read:
 * electron/main/updates.ts gives electron-updater its own config). Whether this copy can check who
 * made an update is update-trust.ts's question.
 */
import { z } from 'zod';
import { describeIssues } from '../../../src/shared/basics/errors';
import { t, tEnglish } from '../../../src/shared/i18n';

/** The `updates` block of profiles.json (and what the policies amount to). */
export const UpdatesBlock = z.object({
  enabled: z.boolean().optional(),
  url: z.string().nullable().optional(),
});
export type UpdatesBlock = z.infer<typeof UpdatesBlock>;

export type UpdateSettings = { enabled: false; reason: string } | { enabled: true; feedUrl: string };

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

/**
 * The feed address if it is one the app may fetch its own code from: https; plain http on this
 * computer only in a development build (an installed app would take its code from whichever local
 * user holds that port first).
 */
type FeedProblem = 'notAddress' | 'https' | 'credentials';

function feedAddress(
  raw: string,
  development: boolean,
): { ok: true; url: string } | { ok: false; problem: FeedProblem } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, problem: 'notAddress' };
  }
  if (url.protocol !== 'https:' && !(development && url.protocol === 'http:' && isLoopback(url.hostname)))
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
  options: {
    sourceName: string;
    /** Not the installed app: http on this computer is allowed (tests). */ development: boolean;
  },
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
    const feed = feedAddress(url, options.development);
    if (!feed.ok) {
      const args = { source: options.sourceName, problem: feed.problem };
      return {
        settings: off(() => t('coreUpdates.badAddress', args)),
        problems: [tEnglish('coreUpdates.badAddress', args)],
      };
    }
    return { settings: { enabled: true, feedUrl: feed.url }, problems: [] };
  }
  return { settings: off(() => t('coreUpdates.noAddress')), problems: [] };
}
