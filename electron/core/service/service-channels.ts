/**
 * The service's channels: the Animal Adoption Service's operations through the profile's client,
 * its governor's snapshot, and the request log. A creation goes out between the safety copy's
 * steps (`sendKept`, safety-copy/safety-copy-channels.ts), one per entry at a time; an entry
 * whose send the app gave up waiting on (a timeout) is not sent again for `SEND_SETTLES_MS`: a
 * send of it meanwhile is answered `settling` (the other entries go on).
 */
import { type ChannelOutput, type Handlers, SEND_SETTLES_MS } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { t } from '../../../src/shared/i18n';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import type { ProfileClients } from './profile-clients';

type Created = ChannelOutput<'createPet'>;

/** Sends a creation between the safety copy's steps. */
export type SendKept = (
  profileId: string,
  idempotencyKey: string,
  send: () => Promise<Result<Created>>,
) => Promise<Result<Created>>;

/** The shortest wait a `settling` answer asks for (no busy loop in its last moments). */
const SETTLING_MIN_MS = 1_000;
/**
 * How long, and for how many entries, the core keeps the service's answer to a creation: a
 * window that takes over the sending (the sender closed or reloaded mid-send) may send the entry
 * again after that answer came, having read the lists before the animal reached the service.
 */
const ANSWER_KEPT_MS = 10 * 60_000;
const ANSWERS_KEPT = 1_000;

export interface ServiceChannels {
  handlers: Handlers<
    'listPets' | 'getPet' | 'createPet' | 'ordersRaw' | 'testKey' | 'governorSnapshot' | 'diagnostics'
  >;
  /** Forgets the creations under way and those held. */
  dispose(): void;
}

export function serviceChannels(
  clients: ProfileClients,
  sendKept: SendKept,
  clock: Clock,
  /** How long a timed-out creation is held (tests of other matters shorten it, as they shorten the timeouts). */
  settlesMs: number = SEND_SETTLES_MS,
): ServiceChannels {
  /** Creations sent and not answered yet, by profile and idempotency key (see `createPet`). */
  const creating = new Map<string, Promise<Result<Created>>>();
  /**
   * Creations the app gave up waiting on (a timeout) less than `SEND_SETTLES_MS` ago, by profile
   * and idempotency key: when the hold ends (the clock's monotonic time). Ended holds are dropped
   * when read and whenever another is added.
   */
  const settling = new Map<string, number>();
  /** The service's answers to creations of the last `ANSWER_KEPT_MS`, oldest first (see `createPet`). */
  const answered = new Map<string, { created: Created; at: number }>();

  function keepAnswer(id: string, created: Created): void {
    const now = clock.monotonic();
    answered.delete(id);
    answered.set(id, { created, at: now });
    for (const [key, { at }] of answered) {
      if (answered.size <= ANSWERS_KEPT && now - at < ANSWER_KEPT_MS) break;
      answered.delete(key);
    }
  }

  function createPet(profileId: string, idempotencyKey: string, send: () => Promise<Result<Created>>) {
    // One creation per entry at a time: a window that takes over the sending (the sender was
    // closed or reloaded mid-send) may send the entry again while its first send still runs here;
    // it gets that send's answer rather than a second animal.
    const id = `${profileId}\n${idempotencyKey}`;
    const running = creating.get(id);
    if (running) return running;
    // Nor again once its answer came: the window that took over read the lists before the animal
    // reached the service and sends it again (on a service that ignores Idempotency-Key, a second
    // animal; the simulator's 10,000-day run, chunk 26). It gets the answer this core had.
    const known = answered.get(id);
    if (known && clock.monotonic() - known.at < ANSWER_KEPT_MS)
      return Promise.resolve(ok({ ...known.created, answeredBefore: true }));
    // Nor again soon after the app gave up waiting on it: the service may still store it (a
    // window that took over read the lists at once, found nothing yet, and sent it: a second
    // animal on a service that ignores Idempotency-Key; the simulator's day 363). Only this entry
    // waits: the answer is `settling`, never a timeout again, which the window would read as the
    // service unreachable and stop the whole queue (c0b75b1, taken back in f4731b2).
    const heldMs = (settling.get(id) ?? 0) - clock.monotonic();
    if (heldMs > 0) {
      const waitMs = Math.max(SETTLING_MIN_MS, heldMs);
      return Promise.resolve(
        err('settling', t('core.sendSettling', { seconds: Math.ceil(waitMs / 1000) }), {
          retryAfterMs: waitMs,
          notSent: true,
        }),
      );
    }
    settling.delete(id);
    const created = send();
    const done = (result: Result<Created> | null): void => {
      if (creating.get(id) === created) creating.delete(id);
      if (result?.ok) keepAnswer(id, result.data);
      if (result && !result.ok && result.error.code === 'timeout') {
        const now = clock.monotonic();
        for (const [key, until] of settling) if (until <= now) settling.delete(key);
        settling.set(id, now + settlesMs);
      }
    };
    created.then(done, () => done(null));
    creating.set(id, created);
    return created;
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
      settling.clear();
      creating.clear();
    },
  };
}
