/**
 * Where the app's own updates stand, as the core says (electron/core/updates): read once at
 * start, then from its `update` events. `notice` is the one line staff see when an update is
 * ready; `describe` is the state in words (Diagnostics).
 */
import { clockTime, t } from '../language';
import type { AdoptionApi } from '../shared/app-api/client';
import type { UpdateStatus } from '../shared/app-api/updates';

/** The line staff see when an update is ready, or null. */
export function updateNotice(status: UpdateStatus | null): string | null {
  if (status?.state !== 'ready') return null;
  return status.waiting > 0
    ? t('shell.updateReadyWaiting', { count: status.waiting })
    : t('shell.updateReady', { version: status.version });
}

/** The state in words, for Diagnostics. */
export function describeUpdate(status: UpdateStatus | null): string {
  if (!status) return t('shell.updateUnknown');
  switch (status.state) {
    case 'off':
      return t('shell.updateOff', { reason: status.reason });
    case 'idle':
      if (status.lastCheck === null) {
        return status.nextCheck === null
          ? t('shell.updateNotLooked')
          : t('shell.updateNotLookedNext', { next: clockTime(status.nextCheck) });
      }
      return status.nextCheck === null
        ? t('shell.updateUpToDate', { last: clockTime(status.lastCheck) })
        : t('shell.updateUpToDateNext', { last: clockTime(status.lastCheck), next: clockTime(status.nextCheck) });
    case 'checking':
      return t('shell.updateChecking');
    case 'downloading':
      return status.percent === null
        ? t('shell.updateDownloading', { version: status.version })
        : t('shell.updateDownloadingPercent', { version: status.version, percent: status.percent });
    case 'ready':
      return updateNotice(status) ?? '';
    case 'failed':
      return status.nextCheck === null
        ? t('shell.updateFailed', { reason: status.message })
        : t('shell.updateFailedNext', { reason: status.message, next: clockTime(status.nextCheck) });
  }
}

export class UpdatesStore {
  status = $state.raw<UpdateStatus | null>(null);
  readonly notice = $derived(updateNotice(this.status));
  #unsubscribe: (() => void) | null = null;

  constructor(private readonly api: Pick<AdoptionApi, 'updateStatus' | 'on'>) {}

  async start(): Promise<void> {
    // Events first, so a change between the read and the subscription is not lost.
    this.#unsubscribe ??= this.api.on('update', (status) => {
      this.status = status;
    });
    const read = await this.api.updateStatus({});
    if (read.ok && this.status === null) this.status = read.data;
  }

  /** Reads the status again (the core words its reasons in the language it speaks now). */
  async refresh(): Promise<void> {
    const read = await this.api.updateStatus({});
    if (read.ok) this.status = read.data;
  }

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
