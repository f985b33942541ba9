/**
 * The one router of the app's API: every channel of `src/shared/app-api/api.ts`, whichever
 * transport (Electron IPC or the browser host) carried the call. It parses the channel
 * name and the input with the contract's zod schemas, calls the handler, and turns every
 * failure into an error value: nothing is ever thrown across it.
 *
 * Validation messages name the failing paths and zod's messages, never the input values
 * (the `setKey` input holds an API key). Every answer leaves through the scrubber
 * (`scrub.ts`): no API key or proxy password, whole in any form, crosses this edge, nor
 * reaches the error log.
 */
import { z } from 'zod';
import {
  api,
  type Channel,
  type ChannelArgs,
  type ChannelOutput,
  CHANNELS,
  type Handlers,
} from '../../../src/shared/app-api/api';
import { describeIssues } from '../../../src/shared/basics/errors';
import { t } from '../../../src/shared/i18n';
import { err, type Result } from '../../../src/shared/app-api/result';
import { Scrubber, scrubResult } from '../keys';

export type { Handlers };

/** The channels the parts serve, all together. */
type ChannelsOf<P extends readonly object[]> = { [I in keyof P]: keyof P[I] }[number];
/** The channels more than one of the parts serves. */
type ServedTwice<P extends readonly object[]> = P extends readonly [
  infer First extends object,
  ...infer Rest extends readonly object[],
]
  ? (keyof First & ChannelsOf<Rest>) | ServedTwice<Rest>
  : never;
/** `Handlers` when the parts serve every channel exactly once; otherwise what is wrong, which no router takes. */
type Served<P extends readonly object[]> = [ServedTwice<P>] extends [never]
  ? [Exclude<Channel, ChannelsOf<P>>] extends [never]
    ? Handlers
    : { notServed: Exclude<Channel, ChannelsOf<P>> }
  : { servedTwice: ServedTwice<P> };

/**
 * The router's handlers, merged from the subsystems' own (each serves its channels, e.g.
 * `keyChannels`): a channel of the contract that no part serves, or that two parts serve, does not
 * compile (the result is then no `Handlers`), and throws here should a cast have hidden it.
 */
export function serveChannels<const P extends readonly Partial<Handlers>[]>(...parts: P): Served<P> {
  const merged: Partial<Record<string, unknown>> = {};
  for (const part of parts) {
    for (const [channel, handler] of Object.entries(part)) {
      if (channel in merged) throw new Error(`the ${channel} channel is served twice`);
      merged[channel] = handler;
    }
  }
  const missing = CHANNELS.filter((channel) => !(channel in merged));
  if (missing.length > 0) throw new Error(`no handler serves ${missing.join(', ')}`);
  return merged as Served<P>;
}

export interface Router {
  /** Answers a call; never throws, never rejects. */
  handle(channel: string, input: unknown): Promise<Result<unknown>>;
}

export interface RouterOptions {
  /** Told about handler failures, without the call's payload. Defaults to console.error. */
  logError?: (message: string) => void;
  /** The core's scrubber (it knows the keys in use); a fresh one, knowing none, by default. */
  scrubber?: Scrubber;
}

const KNOWN = new Set<string>(CHANNELS);

export function isChannel(name: string): name is Channel {
  return KNOWN.has(name);
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : typeof error;
}

export function createRouter(handlers: Handlers, options: RouterOptions = {}): Router {
  const scrubber = options.scrubber ?? new Scrubber();
  const logError = (message: string): void =>
    (options.logError ?? ((line: string) => console.error(line)))(scrubber.text(message));

  async function dispatch<C extends Channel>(channel: C, input: unknown): Promise<Result<unknown>> {
    const schema = api[channel].input as unknown as z.core.$ZodType<ChannelArgs<C>>;
    // The browser client sends `{}` for a missing input; IPC sends `undefined`: same meaning.
    const parsed = z.safeParse(schema, input === undefined ? {} : input);
    if (!parsed.success) {
      return err(
        'invalid_request',
        t('core.invalidChannelRequest', { channel, issues: describeIssues(parsed.error.issues, { max: 10 }) }),
      );
    }
    const handler = handlers[channel] as (args: ChannelArgs<C>) => Promise<Result<ChannelOutput<C>>>;
    const result = await handler(parsed.data);
    if (!isResult(result)) {
      logError(`router: the ${channel} handler returned something that is not a result`);
      return err('internal', t('core.coreFailed'));
    }
    return result;
  }

  return {
    async handle(channel, input) {
      if (typeof channel !== 'string' || !isChannel(channel)) {
        return err('invalid_request', t('core.unknownChannel'));
      }
      try {
        const result = await dispatch(channel, input);
        const hiddenBefore = scrubber.hiddenCount;
        const scrubbed = scrubResult(channel, result, scrubber);
        // A key hidden where the contract wants a number or an id: the answer would no longer be
        // what it says it is. It is withheld whole rather than sent half true.
        if (
          scrubbed.ok &&
          scrubber.hiddenCount !== hiddenBefore &&
          !api[channel].output.safeParse(scrubbed.data).success
        ) {
          logError(`router: a ${channel} answer held an API key where another kind of value belongs; withheld`);
          return err('withheld', t('core.withheld'));
        }
        return scrubbed;
      } catch (error) {
        // The error's own text only; never the payload, which may hold a key.
        logError(`router: ${channel} failed (${errorName(error)})`);
        return err('internal', t('core.coreFailed'));
      }
    },
  };
}

function isResult(value: unknown): value is Result<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { ok?: unknown; error?: unknown };
  if (candidate.ok === true) return 'data' in candidate;
  return candidate.ok === false && typeof candidate.error === 'object' && candidate.error !== null;
}
