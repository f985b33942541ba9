/**
 * "Ours" in the drain benches: the app's real path for a write, the profile's
 * `RateLimitGovernor` (default options) and `createServiceClient(...).createPet(animal, key)`,
 * with every creation queued at once; the governor sends writes one at a time, in order. A
 * creation the core gives up on (its retries used up) is sent again with the same key, as
 * the outbox does, until it is created or the bench's deadline passes.
 */
import { RateLimitGovernor } from '../../../electron/core/rate-limit/governor';
import { createServiceClient } from '../../../electron/core/service/service-client';
import { systemClock } from '../../../src/shared/basics/clock';
import type { Creation, DrainOutcome, DrainTarget } from './post-pet';

export async function drainGoverned(target: DrainTarget, creations: readonly Creation[]): Promise<DrainOutcome> {
  const governor = new RateLimitGovernor({ profileId: 'bench', clock: systemClock });
  const client = createServiceClient({
    fetch: globalThis.fetch,
    baseUrl: target.url,
    getKey: async () => target.key,
    governor,
    clock: systemClock,
    profileId: 'bench',
  });
  try {
    const created = await Promise.all(
      creations.map(async (creation) => {
        while (!target.signal.aborted) {
          const result = await client.createPet(creation.animal, creation.idempotencyKey, { signal: target.signal });
          if (result.ok) return true;
          if (result.error.code !== 'rate_limited' && result.error.code !== 'banned') return false;
        }
        return false;
      }),
    );
    const count = created.filter(Boolean).length;
    return { created: count, failed: created.length - count };
  } finally {
    governor.dispose();
  }
}
