/**
 * "Ours" in the drain bench: the app's real path for a write, the profile's
 * `RateLimitGovernor` (default options) and `createServiceClient(...).createPet(pet, key)`,
 * with every creation queued at once; the governor sends writes one at a time, in order.
 */
import { systemClock } from '../../../electron/core/clock';
import { RateLimitGovernor } from '../../../electron/core/governor';
import { createServiceClient } from '../../../electron/core/service-client';
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
    const results = await Promise.all(
      creations.map((creation) => client.createPet(creation.pet, creation.idempotencyKey, { signal: target.signal })),
    );
    const created = results.filter((result) => result.ok).length;
    return { created, failed: results.length - created };
  } finally {
    governor.dispose();
  }
}
