/**
 * The app's API: every channel between the renderer and the core, with its input and
 * output schemas, and every event the core pushes. Main registers handlers from it, the
 * preload and the browser client build `window.adoption` from it; nothing is declared twice.
 */
import { Animal, Int64, ListQuery, NewAnimal } from '../records/animal';
import { DiagnosticEntry } from './diagnostics';
import { Language, t } from '../i18n';
import { ProfileId, Profile, ProfileInput, ProfileList } from '../records/profile';
import { GovernorSnapshot } from './rate-limit';
import type { Result } from './result';
import { UpdateStatus } from './updates';
import { z } from '../basics/zod';

const MAX_KEY_BYTES = 4096;

/**
 * Half of a UTF-16 surrogate pair on its own: not text, so it has no UTF-8 form (the keychain
 * stores it mangled or fails) and no HTTP header can carry it. Secrets with one are refused.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * A secret (an API key, a proxy password) of fewer characters than this is hidden from what the
 * core answers only where it stands alone as a word (electron/core/keys/scrub.ts), and staff are
 * told so when they save one: hidden wherever it appears, it would blank ordinary words and dates.
 */
export const SHORT_SECRET_LENGTH = 8;
export const isShortSecret = (secret: string): boolean => [...secret].length < SHORT_SECRET_LENGTH;

/** An API key as staff paste it: non-empty, no whitespace or control characters, ≤ 4 KiB. */
export const ApiKey = z.string().check(
  z.minLength(1, { error: () => t('contract.keyEmpty') }),
  z.refine((key: string) => new TextEncoder().encode(key).length <= MAX_KEY_BYTES, {
    error: () => t('contract.keyTooLong'),
  }),
  z.refine((key: string) => !/[\s\p{Cc}]/u.test(key), { error: () => t('contract.keySpaces') }),
  z.refine((key: string) => !LONE_SURROGATE.test(key), {
    error: () => t('contract.keyNotText'),
  }),
);

const ProfileRef = z.object({ profileId: ProfileId });

/**
 * What is known of a profile's API key, tracked by the core alone (electron/core/keys/key-status.ts):
 * `none` (no key for the profile's address), `saved` (saved, not tried yet), `accepted` (the
 * service answered a call made with it), `refused` (the service answered 401 to it).
 */
export const KeyState = z.enum(['none', 'saved', 'accepted', 'refused']);
export type KeyState = z.infer<typeof KeyState>;
const KeyStatus = z.object({ profileId: z.string(), state: KeyState, at: z.number() });

export const DeprecationInfo = z.object({
  /** The `Deprecation` header as sent (e.g. `@1700000000`), null when absent. */
  deprecation: z.nullable(z.string()),
  /** The `Sunset` header as sent (an HTTP-date), null when absent. */
  sunset: z.nullable(z.string()),
});

/**
 * An animal staff entered, as the core's safety copy keeps it (electron/core/safety-copy): the
 * outbox entry's own ids and payload, written to the journal before the form says it is saved.
 */
export const SafetyEntry = z.object({
  localId: z.uuid(),
  idempotencyKey: z.uuid(),
  animal: NewAnimal,
  createdAt: z.number(),
  /**
   * Kept in doubt (a send of it may have reached the service unanswered): the window copies into
   * the safety copy an entry only IndexedDB still has, and a restore must bring it back in doubt.
   */
  doubtSince: z.optional(z.number()),
});
export type SafetyEntry = z.infer<typeof SafetyEntry>;

/** The most entries one `keepEntries` call carries (a larger import is kept in several calls of one batch). */
export const KEEP_ENTRIES_MAX = 500;

/** A proxy as a login is kept for it: "host:port" (an IPv6 host in brackets). */
export const ProxyName = z
  .string()
  .check(
    z.maxLength(300),
    z.regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, { error: () => t('contract.proxyForm') }),
  );

/** A login for the organisation's proxy, kept in the OS keychain; the password is never read back. */
const ProxyLoginInput = z.object({
  proxy: ProxyName,
  username: z.string().check(
    z.minLength(1, { error: () => t('contract.userNameEmpty') }),
    z.maxLength(200),
    z.refine((text: string) => !/[\p{Cc}:]/u.test(text), {
      error: () => t('contract.userNameColon'),
    }),
    z.refine((text: string) => !LONE_SURROGATE.test(text), {
      error: () => t('contract.userNameNotText'),
    }),
  ),
  password: z.string().check(
    z.minLength(1, { error: () => t('contract.passwordEmpty') }),
    z.maxLength(1000),
    z.refine((text: string) => !/\p{Cc}/u.test(text), { error: () => t('contract.passwordControl') }),
    z.refine((text: string) => !LONE_SURROGATE.test(text), {
      error: () => t('contract.passwordNotText'),
    }),
  ),
});

/**
 * How long a creation the app stopped waiting for (a timeout: the service was slower than the
 * app's 15 s / 30 s limits) may still go on at the service, which may store the animal after the
 * app gave up: a minute, the usual gateway timeout. The core sends that entry again only that long
 * after it gave up (a send of it meanwhile is answered `settling`, for that entry alone:
 * electron/core/service/service-channels.ts), and the window reads the service's lists for it
 * only that long after (src/sync/send-entry.ts), so that an empty list means the animal was not
 * stored.
 */
export const SEND_SETTLES_MS = 60 * 1000;

export const api = {
  listPets: {
    input: z.extend(ProfileRef, {
      query: ListQuery,
      /** The screen asking: its newer read drops an older one not yet sent (electron/core/service/read-sharing.ts). */
      view: z.optional(z.string().check(z.minLength(1), z.maxLength(40))),
    }),
    output: z.object({ animals: z.array(Animal), fetchedAt: z.number() }),
  },
  getPet: {
    input: z.extend(ProfileRef, { id: Int64 }),
    output: z.object({ animal: Animal, fetchedAt: z.number(), deprecation: DeprecationInfo }),
  },
  createPet: {
    input: z.extend(ProfileRef, { animal: NewAnimal, idempotencyKey: z.uuid() }),
    output: z.object({
      animal: Animal,
      fetchedAt: z.number(),
      /**
       * true: the core already had the service's answer to a send of this key (a window that
       * took over sent the entry again) and answers with it; nothing was sent. Not the service
       * replaying the key, so it proves nothing about whether the service keeps keys.
       */
      answeredBefore: z.optional(z.boolean()),
    }),
  },
  /**
   * Keeps accepted creations (or an entry edited by staff: same localId, new key and payload) in the
   * profile's safety copy, on disk when it answers. A batch of several calls counts only once its
   * call with `complete: true` is kept, so an import that fails halfway leaves nothing to restore.
   */
  keepEntries: {
    input: z.extend(ProfileRef, {
      batch: z.uuid(),
      complete: z.boolean(),
      entries: z.array(SafetyEntry).check(z.minLength(1), z.maxLength(KEEP_ENTRIES_MAX)),
    }),
    output: z.object({ kept: z.int().check(z.nonnegative()) }),
  },
  /** An entry's end in the safety copy: the service has it (`acknowledged`, with its id), or staff discarded it. */
  settleEntry: {
    input: z.discriminatedUnion('outcome', [
      z.extend(ProfileRef, { localId: z.uuid(), outcome: z.literal('acknowledged'), id: Int64 }),
      z.extend(ProfileRef, { localId: z.uuid(), outcome: z.literal('discarded') }),
    ]),
    output: z.object({ settled: z.boolean() }),
  },
  /**
   * The entries of the profile's safety copy that are neither acknowledged nor discarded, in the
   * order they were entered; `doubtSince` when a send of the entry may have reached the service
   * unanswered; `fromEarlierVersion` when the browser host recovered it from an earlier version. `problems` says what the journal's reading found (a torn or damaged line).
   */
  safetyCopy: {
    input: ProfileRef,
    output: z.object({
      entries: z.array(
        z.extend(SafetyEntry, {
          doubtSince: z.nullable(z.number()),
          /** Recovered from an earlier version's queue (the browser host's update from 127.0.0.1). */
          fromEarlierVersion: z.optional(z.literal(true)),
        }),
      ),
      problems: z.array(z.string()),
    }),
  },
  /** Where the app's own updates stand (electron/core/updates); `off` outside the installed desktop app. */
  updateStatus: {
    input: z.object({}),
    output: UpdateStatus,
  },
  ordersRaw: {
    input: ProfileRef,
    output: z.object({ body: z.json(), fetchedAt: z.number() }),
  },
  listProfiles: {
    input: z.object({}),
    output: ProfileList,
  },
  saveProfile: {
    input: ProfileInput,
    output: Profile,
  },
  removeProfile: {
    input: ProfileRef,
    output: z.object({ removed: z.literal(true) }),
  },
  setKey: {
    input: z.extend(ProfileRef, { key: ApiKey }),
    output: z.object({ saved: z.literal(true) }),
  },
  clearKey: {
    input: ProfileRef,
    output: z.object({ cleared: z.literal(true) }),
  },
  hasKey: {
    input: ProfileRef,
    output: z.object({ hasKey: z.boolean() }),
  },
  /** The core's key state of the profile (also pushed as the `key` event whenever it changes). */
  keyStatus: {
    input: ProfileRef,
    output: KeyStatus,
  },
  testKey: {
    input: ProfileRef,
    output: z.object({ result: z.enum(['valid', 'invalid', 'unreachable']), message: z.string() }),
  },
  governorSnapshot: {
    input: ProfileRef,
    output: GovernorSnapshot,
  },
  diagnostics: {
    input: z.object({}),
    output: z.object({ entries: z.array(DiagnosticEntry) }),
  },
  /**
   * The proxy logins kept in the keychain (user names only) and the proxies that asked for a login
   * this run and have none that worked (the Proxy login card of Keys and profiles).
   */
  proxyLogins: {
    input: z.object({}),
    output: z.object({
      logins: z.array(z.object({ proxy: ProxyName, username: z.string() })),
      asked: z.array(ProxyName),
    }),
  },
  setProxyLogin: {
    input: ProxyLoginInput,
    output: z.object({ saved: z.literal(true) }),
  },
  clearProxyLogin: {
    input: z.object({ proxy: ProxyName }),
    output: z.object({ cleared: z.boolean() }),
  },
  /**
   * The languages the system prefers, most preferred first, as the desktop app knows them
   * (Electron's `app.getPreferredSystemLanguages()`); null in the browser host, where the window
   * reads its browser's `navigator.languages` (src/language/language.svelte.ts).
   */
  systemLanguages: {
    input: z.object({}),
    output: z.object({
      languages: z.nullable(z.array(z.string().check(z.maxLength(100))).check(z.maxLength(100))),
    }),
  },
  /** The language the window shows: the core's messages (its errors) follow it from now on. */
  useLanguage: {
    input: z.object({ language: Language }),
    output: z.object({ language: Language }),
  },
} as const satisfies Record<string, { input: z.ZodMiniType; output: z.ZodMiniType }>;

/** A file name the app suggests in a save dialog: letters, digits, dots, dashes; `.csv` or `.json`. */
export const SuggestedFileName = z
  .string()
  .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.(csv|json)$/, { error: () => t('contract.fileNameNotSuggested') }));

/** The largest text a save may carry (a 10,000-animal export is under 1 MiB). */
export const SAVE_FILE_MAX_CHARS = 16 * 1024 * 1024;

/**
 * Channels only the Electron host has, handled in electron/main (a native save dialog,
 * printing the window). The browser host has none: there the renderer uses the browser's own
 * download and `window.print()`. Called through `window.adoption.desktop` (null in a browser).
 */
export const desktopApi = {
  saveFile: {
    input: z.object({ suggestedName: SuggestedFileName, text: z.string().check(z.maxLength(SAVE_FILE_MAX_CHARS)) }),
    output: z.object({ saved: z.boolean(), fileName: z.nullable(z.string()) }),
  },
  printPage: {
    input: z.object({}),
    output: z.object({ printed: z.boolean(), reason: z.nullable(z.string()) }),
  },
} as const satisfies Record<string, { input: z.ZodMiniType; output: z.ZodMiniType }>;

export const events = {
  governor: GovernorSnapshot,
  /** Every answer or failure that says whether the profile's service is reachable (electron/core/service/connectivity.ts). */
  connectivity: z.object({ profileId: z.string(), online: z.boolean(), at: z.number() }),
  key: KeyStatus,
  profiles: ProfileList,
  update: UpdateStatus,
} as const satisfies Record<string, z.ZodMiniType>;

export type Api = typeof api;
export type Channel = keyof Api;
export type ChannelInput<C extends Channel> = z.input<Api[C]['input']>;
export type ChannelArgs<C extends Channel> = z.output<Api[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<Api[C]['output']>;
/** The `safetyCopy` channel's answer: a profile's open entries in the order entered, and what reading found. */
export type SafetyCopyRead = ChannelOutput<'safetyCopy'>;
/** What became of an entry of the safety copy, in the `settleEntry` channel's shape (without whose entry it is). */
export type SafetyOutcome =
  ChannelArgs<'settleEntry'> extends infer I ? (I extends unknown ? Omit<I, 'profileId' | 'localId'> : never) : never;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

export const CHANNELS = Object.keys(api) as Channel[];

/** What serves channel C in the core: its parsed input in, a result out (electron/core/api/router.ts calls it). */
export type ChannelHandler<C extends Channel> = (args: ChannelArgs<C>) => Promise<Result<ChannelOutput<C>>>;
/** The handlers of the channels C (all by default): each core subsystem serves its own (docs/architecture.md). */
export type Handlers<C extends Channel = Channel> = { [K in C]: ChannelHandler<K> };

export type DesktopApi = typeof desktopApi;
export type DesktopChannel = keyof DesktopApi;
export type DesktopInput<C extends DesktopChannel> = z.input<DesktopApi[C]['input']>;
export type DesktopArgs<C extends DesktopChannel> = z.output<DesktopApi[C]['input']>;
export type DesktopOutput<C extends DesktopChannel> = z.output<DesktopApi[C]['output']>;
export const DESKTOP_CHANNELS = Object.keys(desktopApi) as DesktopChannel[];

/** The IPC channel name of an API channel or event (one prefix, one place). */
export const ipcName = (name: Channel | DesktopChannel | EventName): string => `adoption:${name}`;
