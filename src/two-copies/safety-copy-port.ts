/**
 * The renderer's way to the core's safety copy (electron/core/safety-copy): the outbox keeps each
 * entry there before IndexedDB and settles it there when staff discard it or pick its animal on
 * the service (the outbox's `SafetyCopyWrites`); restore.ts reads it back. The core acknowledges
 * what the service created by itself, as every creation passes through it.
 */
import { KEEP_ENTRIES_MAX, type SafetyCopyRead } from '../shared/app-api/api';
import type { AdoptionApi } from '../shared/app-api/client';
import type { Result } from '../shared/app-api/result';
import type { SafetyCopyWrites } from '../storage';

export type { SafetyCopyRead };

/** What the outbox writes (keep, settle: SafetyCopyError when it could not), and reading it back. */
export interface SafetyCopyPort extends SafetyCopyWrites {
  read(): Promise<SafetyCopyRead>;
}

/** The safety copy could not be written or read; the message is for staff. */
export class SafetyCopyError extends Error {
  override name = 'SafetyCopyError';
}

type SafetyApi = Pick<AdoptionApi, 'keepEntries' | 'settleEntry' | 'safetyCopy'>;

function orThrow<T>(result: Result<T>): T {
  if (!result.ok) throw new SafetyCopyError(result.error.message);
  return result.data;
}

/** The safety copy of one profile, through the app API. */
export function safetyCopyOf(api: SafetyApi, profileId: string): SafetyCopyPort {
  return {
    async keep(entries) {
      // One batch: an import larger than one call counts only once its last call is kept.
      const batch = crypto.randomUUID();
      for (let start = 0; start < entries.length; start += KEEP_ENTRIES_MAX) {
        const chunk = entries.slice(start, start + KEEP_ENTRIES_MAX);
        const complete = start + KEEP_ENTRIES_MAX >= entries.length;
        orThrow(await api.keepEntries({ profileId, batch, complete, entries: [...chunk] }));
      }
    },
    async settle(localId, outcome) {
      orThrow(await api.settleEntry({ profileId, localId, ...outcome }));
    },
    async read() {
      return orThrow(await api.safetyCopy({ profileId }));
    },
  };
}
