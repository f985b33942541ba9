/**
 * The service's channels: the Animal Adoption Service's operations through the profile's client,
 * its governor's snapshot, and the request log. A creation goes out between the safety copy's
 * steps (`sendKept`, safety-copy/safety-copy-channels.ts), one per entry at a time.
 */
import type { ChannelOutput, Handlers } from '../../../src/shared/api';
import { ok, type Result } from '../../../src/shared/result';
import type { ProfileClients } from './profile-clients';

type Created = ChannelOutput<'createPet'>;

/** Sends a creation between the safety copy's steps. */
export type SendKept = (
  profileId: string,
  idempotencyKey: string,
  send: () => Promise<Result<Created>>,
) => Promise<Result<Created>>;

export function serviceChannels(
  clients: ProfileClients,
  sendKept: SendKept,
): Handlers<'listPets' | 'getPet' | 'createPet' | 'ordersRaw' | 'testKey' | 'governorSnapshot' | 'diagnostics'> {
  /** Creations under way, by profile and idempotency key (see `createPet`). */
  const creating = new Map<string, Promise<Result<Created>>>();

  return {
    listPets: ({ profileId, query, view }) =>
      clients.call(profileId, (c) => c.listPets(query, view === undefined ? {} : { view })),
    getPet: ({ profileId, id }) => clients.call(profileId, (c) => c.getPet(id)),
    createPet: ({ profileId, animal, idempotencyKey }) => {
      // One creation per entry at a time: a window that takes over the sending (the sender was
      // closed or reloaded mid-send) may send the entry again while its first send still runs
      // here; it gets that send's answer rather than a second animal.
      const id = `${profileId}\n${idempotencyKey}`;
      const running = creating.get(id);
      if (running) return running;
      const created = clients
        .call(profileId, (c) => sendKept(profileId, idempotencyKey, () => c.createPet(animal, idempotencyKey)))
        .finally(() => creating.delete(id));
      creating.set(id, created);
      return created;
    },
    ordersRaw: ({ profileId }) => clients.call(profileId, (c) => c.ordersRaw()),
    testKey: ({ profileId }) => clients.call(profileId, (c) => c.testKey()),
    governorSnapshot: async ({ profileId }) => clients.governorSnapshot(profileId),
    diagnostics: async () => ok({ entries: clients.diagnostics.entries() }),
  };
}
