/**
 * The app's own updates as the core runs them: the organisation's settings read (and trusted only
 * when this copy can check who made an update), the policy started, the `updateStatus` channel,
 * and the count of animals waiting to be sent, which an update must wait for before it installs.
 */
import type { EventPayload, Handlers } from '../../../src/shared/app-api/api';
import type { Clock } from '../../../src/shared/basics/clock';
import { ok } from '../../../src/shared/app-api/result';
import { UpdatePolicy, type UpdaterPort } from './update-policy';
import { readUpdateSettings } from './update-settings';
import { trustedSettings, type UpdateTrust } from './update-trust';

export interface UpdateChannelsOptions {
  clock: Clock;
  /** The organisation's `updates` settings and where they came from (profiles/: the built-ins' source). */
  organisation: { block: unknown; sourceName: string };
  /** The app's own updater and whom an update must come from; without it updates are off. */
  updates: { port: UpdaterPort; trust: UpdateTrust; development?: boolean } | undefined;
  /** The animals waiting to be sent (the safety copy), counted again after each change. */
  waiting: { openCount(): Promise<number>; onChange(listener: () => void): () => void };
  emit: (status: EventPayload<'update'>) => void;
  logError: (message: string) => void;
}

export interface UpdateChannels {
  handlers: Handlers<'updateStatus'>;
  policy: UpdatePolicy;
  dispose(): void;
}

export function updateChannels(options: UpdateChannelsOptions): UpdateChannels {
  const { updates, logError } = options;
  const read = readUpdateSettings(options.organisation.block, {
    sourceName: options.organisation.sourceName,
    development: updates?.development ?? false,
  });
  for (const problem of read.problems) logError(`updates: ${problem}`);
  const policy = new UpdatePolicy({
    clock: options.clock,
    settings: updates ? trustedSettings(read.settings, updates.trust) : read.settings,
    port: updates?.port ?? null,
    emit: options.emit,
  });
  // Updates install on close only when no animal is waiting to be sent: the safety copy knows how many.
  const countWaiting = (): void =>
    void options.waiting.openCount().then(
      (waiting) => policy.waitingChanged(waiting),
      (error: unknown) => logError(`updates: the safety copy could not be counted (${String(error)})`),
    );
  const stopCounting = updates ? options.waiting.onChange(countWaiting) : () => {};
  if (updates) countWaiting();
  policy.start();
  return {
    handlers: { updateStatus: async () => ok(policy.status()) },
    policy,
    dispose() {
      stopCounting();
      policy.dispose();
    },
  };
}
