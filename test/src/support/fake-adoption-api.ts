/**
 * A fake AdoptionApi for component and store tests: every channel answers what the test sets.
 * The safety-copy channels (keepEntries, settleEntry, safetyCopy) answer like the core, from an
 * in-memory journal, unless a test sets its own.
 */
import type {
  Channel,
  ChannelInput,
  ChannelOutput,
  EventName,
  EventPayload,
  SafetyEntry,
} from '../../../src/shared/app-api/api';
import type { AdoptionApi } from '../../../src/shared/app-api/client';
import { err, ok, type Result } from '../../../src/shared/app-api/result';

type Handler<C extends Channel> = (
  input: ChannelInput<C>,
) => Result<ChannelOutput<C>> | Promise<Result<ChannelOutput<C>>>;

export type FakeApi = AdoptionApi & {
  handle<C extends Channel>(channel: C, handler: Handler<C>): void;
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  calls: Array<{ channel: Channel; input: unknown }>;
};

export function fakeAdoptionApi(): FakeApi {
  const handlers = new Map<Channel, Handler<Channel>>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const calls: Array<{ channel: Channel; input: unknown }> = [];
  const journal = new Map<string, { entry: SafetyEntry; profileId: string; open: boolean }>();
  handlers.set('keepEntries', ((input: ChannelInput<'keepEntries'>) => {
    for (const entry of input.entries) journal.set(entry.localId, { entry, profileId: input.profileId, open: true });
    return ok({ kept: input.entries.length });
  }) as unknown as Handler<Channel>);
  handlers.set('settleEntry', ((input: ChannelInput<'settleEntry'>) => {
    const kept = journal.get(input.localId);
    if (kept) kept.open = false;
    return ok({ settled: Boolean(kept) });
  }) as unknown as Handler<Channel>);
  handlers.set('safetyCopy', ((input: ChannelInput<'safetyCopy'>) =>
    ok({
      entries: [...journal.values()]
        .filter((kept) => kept.open && kept.profileId === input.profileId)
        .map((kept) => ({ ...kept.entry, doubtSince: null })),
      problems: [],
    })) as unknown as Handler<Channel>);
  const base = {
    host: 'browser' as const,
    // The browser host has no desktop channels; a test may set its own.
    desktop: null as AdoptionApi['desktop'],
    calls,
    handle<C extends Channel>(channel: C, handler: Handler<C>) {
      handlers.set(channel, handler as unknown as Handler<Channel>);
    },
    emit<E extends EventName>(event: E, payload: EventPayload<E>) {
      for (const listener of listeners.get(event) ?? []) (listener as (p: EventPayload<E>) => void)(payload);
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => void set.delete(listener as (payload: never) => void);
    },
  };
  return new Proxy(base, {
    get(target, property, receiver) {
      if (property in target) return Reflect.get(target, property, receiver);
      const channel = property as Channel;
      return async (input: unknown) => {
        calls.push({ channel, input });
        const handler = handlers.get(channel);
        if (!handler) return err('internal', `no fake handler for ${channel}`);
        return handler(input as never);
      };
    },
  }) as unknown as FakeApi;
}

export { ok, err };
