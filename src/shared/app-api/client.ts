/**
 * Builds `window.adoption` from the contract over any transport (Electron IPC in the
 * preload, HTTP + Server-Sent Events in the browser host's client). Every answer is
 * checked against the channel's output schema; a transport failure becomes an error value.
 */
import {
  api,
  type Channel,
  type ChannelInput,
  type ChannelOutput,
  CHANNELS,
  DESKTOP_CHANNELS,
  desktopApi,
  type DesktopChannel,
  type DesktopInput,
  type DesktopOutput,
  type EventName,
  type EventPayload,
  events,
} from './api';
import { errorMessage } from '../basics/errors';
import { t } from '../i18n';
import { err, type Result, resultSchema } from './result';
import type { z } from '../basics/zod';

export type HostKind = 'electron' | 'browser';

/** What only the Electron host offers (src/shared/app-api/api.ts `desktopApi`). */
export type DesktopMethods = {
  readonly [C in DesktopChannel]: (input: DesktopInput<C>) => Promise<Result<DesktopOutput<C>>>;
};

export type AdoptionApi = {
  readonly [C in Channel]: (input: ChannelInput<C>) => Promise<Result<ChannelOutput<C>>>;
} & {
  readonly host: HostKind;
  /** The Electron host's own channels; null in a browser (which downloads and prints by itself). */
  readonly desktop: DesktopMethods | null;
  /** Subscribes to a core event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

export interface Transport {
  invoke(channel: Channel | DesktopChannel, input: unknown): Promise<unknown>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

// Built on a channel's first call, not at import: the renderer's start-up evaluates this
// module, and most channels are not called then (or at all in a session).
const resultSchemas = new Map<string, z.ZodMiniType>();

/** The wire schema of a channel's result; undefined for a name that is no channel. */
function resultSchemaOf(channel: string, desktop: boolean): z.ZodMiniType | undefined {
  const key = `${desktop ? 'desktop' : 'api'}:${channel}`;
  let schema = resultSchemas.get(key);
  if (!schema) {
    if (desktop && Object.hasOwn(desktopApi, channel)) {
      schema = resultSchema(desktopApi[channel as DesktopChannel].output);
    } else if (!desktop && Object.hasOwn(api, channel)) schema = resultSchema(api[channel as Channel].output);
    if (schema) resultSchemas.set(key, schema);
  }
  return schema;
}

async function call<T>(
  transport: Transport,
  channel: Channel | DesktopChannel,
  input: unknown,
  desktop: boolean,
): Promise<Result<T>> {
  let raw: unknown;
  try {
    raw = await transport.invoke(channel, input);
  } catch (error) {
    const message = errorMessage(error);
    return err('offline', t('contract.coreUnreachable', { detail: message }));
  }
  const parsed = resultSchemaOf(channel, desktop)?.safeParse(raw);
  if (!parsed) return err('invalid_request', t('contract.unknownChannel', { channel }));
  if (!parsed.success) return err('bad_response', t('contract.unexpectedShape', { channel }));
  return parsed.data as Result<T>;
}

export function buildAdoptionApi(transport: Transport, host: HostKind): AdoptionApi {
  const methods = Object.fromEntries(
    CHANNELS.map((channel) => [channel, (input: unknown) => call(transport, channel, input, false)]),
  );
  const desktop =
    host === 'electron'
      ? Object.freeze(
          Object.fromEntries(
            DESKTOP_CHANNELS.map((channel) => [channel, (input: unknown) => call(transport, channel, input, true)]),
          ),
        )
      : null;
  const on = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) =>
    transport.subscribe(event, (payload) => {
      const parsed = events[event].safeParse(payload);
      if (parsed.success) listener(parsed.data as EventPayload<E>);
    });
  return Object.freeze({ ...methods, host, desktop, on }) as AdoptionApi;
}
