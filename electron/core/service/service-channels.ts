/**
 * The service's channels: the Animal Adoption Service's operations through the profile's client,
 * its governor's snapshot, and the request log. A creation goes out between the safety copy's
 * steps (`sendKept`, safety-copy/safety-copy-channels.ts), one per entry at a time, and counts as
 * under way for a minute more when the app gave up waiting on it (`SEND_SETTLES_MS`).
 */
import { type ChannelOutput, type Handlers, SEND_SETTLES_MS } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { ok, type Result } from '../../../src/shared/app-api/result';
import type { ProfileClients } from './profile-clients';

type Created = ChannelOutput<'createPet'>;

/** Sends a creation between the safety copy's steps. */
export type SendKept = (
  profileId: string,
  idempotencyKey: string,
  send: () => Promise<Result<Created>>,
) => Promise<Result<Created>>;

/** Off: see createPet's answer handling. */
const HOLD_AFTER_TIMEOUT = false;

export interface ServiceChannels {
  handlers: Handlers<
    'listPets' | 'getPet' | 'createPet' | 'ordersRaw' | 'testKey' | 'governorSnapshot' | 'diagnostics'
  >;
  /** Stops the timers of creations the app gave up waiting on. */
  dispose(): void;
}

export function serviceChannels(clients: ProfileClients, sendKept: SendKept, clock: Clock): ServiceChannels {
  /**
   * Creations under way, by profile and idempotency key (see `createPet`): sent and not answered
   * yet, or given up on (a timeout) less than `SEND_SETTLES_MS` ago, with the timer that ends that.
   */
  const creating = new Map<string, { created: Promise<Result<Created>>; settles: unknown }>();

  function createPet(profileId: string, idempotencyKey: string, send: () => Promise<Result<Created>>) {
    // One creation per entry at a time: a window that takes over the sending (the sender was
    // closed or reloaded mid-send) may send the entry again while its first send still runs here,
    // or while the service may still store it after the app gave up waiting (it reads the lists,
    // finds nothing yet, and sends); it gets that send's answer rather than a second animal.
    const id = `${profileId}\n${idempotencyKey}`;
    const running = creating.get(id);
    if (running) return running.created;
    const under: { created: Promise<Result<Created>>; settles: unknown } = { created: send(), settles: null };
    const done = (): void => {
      if (creating.get(id) === under) creating.delete(id);
    };
    under.created.then((result) => {
      // Held for SEND_SETTLES_MS after a timeout (c0b75b1) every send of the entry got the timeout
      // again for a minute of real time, which the window reads as the service unreachable: the
      // whole queue stopped and the screen said Offline while the service answered (faults.spec:
      // 65 waiting, "Offline"). Taken back; the simulator's day 363 it fixed is open again
      // (docs/simulation.md, "not yet fixed"; the it.fails in app-core-journal.test.ts).
      if (HOLD_AFTER_TIMEOUT && !result.ok && result.error.code === 'timeout')
        under.settles = clock.setTimeout(done, SEND_SETTLES_MS);
      else done();
    }, done);
    creating.set(id, under);
    return under.created;
  }

  return {
    handlers: {
      listPets: ({ profileId, query, view }) =>
        clients.call(profileId, (c) => c.listPets(query, view === undefined ? {} : { view })),
      getPet: ({ profileId, id }) => clients.call(profileId, (c) => c.getPet(id)),
      createPet: ({ profileId, animal, idempotencyKey }) =>
        createPet(profileId, idempotencyKey, () =>
          clients.call(profileId, (c) =>
            sendKept(profileId, idempotencyKey, () => c.createPet(animal, idempotencyKey)),
          ),
        ),
      ordersRaw: ({ profileId }) => clients.call(profileId, (c) => c.ordersRaw()),
      testKey: ({ profileId }) => clients.call(profileId, (c) => c.testKey()),
      governorSnapshot: async ({ profileId }) => clients.governorSnapshot(profileId),
      diagnostics: async () => ok({ entries: clients.diagnostics.entries() }),
    },
    dispose() {
      for (const { settles } of creating.values()) if (settles !== null) clock.clearTimeout(settles);
      creating.clear();
    },
  };
}
