/**
 * The safety copy's channels (`keepEntries`, `settleEntry`, `safetyCopy`), and what the rest of
 * the core asks of it: the steps written around each creation sent (`sendKept`), an earlier
 * version's queue recovered (`recoverEntries`, the browser host), a removed profile's journal
 * (and at start, those of profiles removed just before a crash).
 */
import type { Handlers } from '../../../src/shared/app-api/api';
import { t } from '../../../src/shared/i18n';
import { err, ok, type Result } from '../../../src/shared/app-api/result';
import { journalFailure } from './journal-file';
import type { RecoveredEntry, RecoverReport, SafetyCopy } from './safety-copy';

export interface SafetyCopyChannels {
  handlers: Handlers<'keepEntries' | 'settleEntry' | 'safetyCopy'>;
  /**
   * Sends a creation whose entry the safety copy holds, writing around it what a restore needs:
   * the attempt before it goes (if that cannot be written, nothing is sent: a restored entry must
   * never be sent blindly), whether it certainly did not reach the service, and the service's
   * acknowledgement (a failure to write that is logged; the renderer settles the entry again).
   */
  sendKept<T extends { animal: { id: string } }>(
    profileId: string,
    idempotencyKey: string,
    send: () => Promise<Result<T>>,
  ): Promise<Result<T>>;
  /**
   * Keeps an earlier version's queue in a profile's safety copy, each entry once and flagged as
   * recovered (the browser host's recovery, electron/host/earlier-origin.ts); null when the
   * profile does not exist. On disk when it resolves; throws when the journal cannot be written.
   */
  recoverEntries(profileId: string, entries: readonly RecoveredEntry[]): Promise<RecoverReport | null>;
  /** The profile was removed: its journal goes (staff were told its unsent animals go with it). */
  profileRemoved(profileId: string): Promise<void>;
  /**
   * At start: the journals of removed profiles go again. Removing writes the profiles file, then
   * deletes the journal; a crash between left the journal of a profile that no longer exists,
   * whose open entries nothing could ever send or settle (and the updates would wait for them).
   */
  finishRemovals(removedIds: readonly string[]): Promise<void>;
}

export function safetyCopyChannels(
  safetyCopy: SafetyCopy,
  { profileExists, logError }: { profileExists: (profileId: string) => boolean; logError: (message: string) => void },
): SafetyCopyChannels {
  async function journalWrite<T>(profileId: string, write: () => Promise<T>): Promise<Result<T>> {
    if (!profileExists(profileId)) return err('not_found', t('core.noSuchProfile'));
    try {
      return ok(await write());
    } catch (error) {
      logError(`safety copy: ${String(error)}`);
      return err('storage_failed', journalFailure(error));
    }
  }

  return {
    handlers: {
      keepEntries: ({ profileId, batch, complete, entries }) =>
        journalWrite(profileId, async () => ({ kept: await safetyCopy.keep(profileId, batch, entries, complete) })),
      settleEntry: ({ profileId, localId, ...outcome }) =>
        journalWrite(profileId, async () => ({ settled: await safetyCopy.settle(profileId, localId, outcome) })),
      safetyCopy: ({ profileId }) => journalWrite(profileId, () => safetyCopy.read(profileId)),
    },
    async sendKept(profileId, idempotencyKey, send) {
      try {
        await safetyCopy.attempt(profileId, idempotencyKey);
      } catch (error) {
        logError(`safety copy: the attempt could not be written (${String(error)}); nothing was sent`);
        return err('internal', t('core.journalFailed'), { notSent: true });
      }
      const result = await send();
      const record = result.ok
        ? safetyCopy.acknowledgeKey(profileId, idempotencyKey, result.data.animal.id)
        : result.error.notSent
          ? safetyCopy.notSent(profileId, idempotencyKey)
          : null;
      await record?.catch((error: unknown) =>
        logError(`safety copy: the outcome could not be written (${String(error)})`),
      );
      return result;
    },
    recoverEntries: async (profileId, entries) =>
      profileExists(profileId) ? safetyCopy.recover(profileId, entries) : null,
    profileRemoved: (profileId) =>
      safetyCopy.forget(profileId).catch((error: unknown) => logError(`removeProfile: ${String(error)}`)),
    async finishRemovals(removedIds) {
      for (const id of removedIds) {
        await safetyCopy.forget(id).catch((error: unknown) => logError(`removed profile ${id}: ${String(error)}`));
      }
    },
  };
}
