/**
 * The service's channels: the Animal Adoption Service's operations through the profile's client,
 * its governor's snapshot, and the request log. A creation goes out between the safety copy's
 * steps (`sendKept`, safety-copy/safety-copy-channels.ts).
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
  return {
    listPets: ({ profileId, query, view }) =>
      clients.call(profileId, (c) => c.listPets(query, view === undefined ? {} : { view })),
    getPet: ({ profileId, id }) => clients.call(profileId, (c) => c.getPet(id)),
    createPet: ({ profileId, animal, idempotencyKey }) =>
      clients.call(profileId, (c) => sendKept(profileId, idempotencyKey, () => c.createPet(animal, idempotencyKey))),
    ordersRaw: ({ profileId }) => clients.call(profileId, (c) => c.ordersRaw()),
    testKey: ({ profileId }) => clients.call(profileId, (c) => c.testKey()),
    governorSnapshot: async ({ profileId }) => clients.governorSnapshot(profileId),
    diagnostics: async () => ok({ entries: clients.diagnostics.entries() }),
  };
}
