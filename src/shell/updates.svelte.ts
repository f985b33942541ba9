/**
 * Where the app's own updates stand, as the core says (electron/core/updates): read once at
 * start, then from its `update` events. `notice` is the one line staff see when an update is
 * ready; `describe` is the state in words (Diagnostics).
 */
import type { AdoptionApi } from '../shared/client';
import type { UpdateStatus } from '../shared/updates';
import { formatTime } from './clock.svelte';

const animals = (count: number) => (count === 1 ? 'the waiting animal is' : `the ${count} waiting animals are`);

/** The line staff see when an update is ready, or null. */
export function updateNotice(status: UpdateStatus | null): string | null {
  if (status?.state !== 'ready') return null;
  return status.waiting > 0
    ? `Update ready: it installs once ${animals(status.waiting)} sent.`
    : `Update ready: version ${status.version} installs when you close Adoption Desk.`;
}

/** The state in words, for Diagnostics. */
export function describeUpdate(status: UpdateStatus | null): string {
  if (!status) return 'Not known yet.';
  const next = (at: number | null) => (at === null ? '' : ` Next look at ${formatTime(at)}.`);
  switch (status.state) {
    case 'off':
      return `Off: ${status.reason}`;
    case 'idle':
      return status.lastCheck === null
        ? `Not looked for yet.${next(status.nextCheck)}`
        : `Up to date (looked at ${formatTime(status.lastCheck)}).${next(status.nextCheck)}`;
    case 'checking':
      return 'Looking for an update…';
    case 'downloading':
      return `Downloading version ${status.version}${status.percent === null ? '' : ` (${status.percent} %)`}…`;
    case 'ready':
      return updateNotice(status) ?? '';
    case 'failed':
      return `The last look for an update failed: ${status.message}.${next(status.nextCheck)}`;
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

  destroy(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
  }
}
