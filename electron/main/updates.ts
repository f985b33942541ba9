/**
 * The installed app's updater: electron-updater (electron.build, "Auto Update"), driven by the
 * core's rule (electron/core/updates/update-policy.ts: when to check, and that a downloaded update
 * installs on close only when no animal is waiting to be sent). Only the glue is here; it is
 * loaded in the packaged app alone (electron-updater's own `isUpdaterActive` skips a development
 * run anyway). What it relies on, from electron-updater 6.8's source:
 * - `autoDownload` true: an update found is downloaded in the background (AppUpdater.js).
 * - The install-on-quit handler is added once, when a download completes, and only if
 *   `autoInstallOnAppQuit` is true at that moment (BaseUpdater.js, `addQuitHandler`, called right
 *   after the `update-downloaded` event); the handler reads the flag again at quit. So the flag
 *   stays true until then, and the policy's decision for the downloaded update is applied after
 *   that event returns (`setImmediate`), never inside it.
 * - The update address: `setFeedURL({ provider: 'generic', url })` when the organisation set one;
 *   otherwise `app-update.yml` in the resources folder, which electron-builder writes from its
 *   `publish` setting (ElectronAppAdapter.js: `process.resourcesPath/app-update.yml`).
 * Checked by reading: electron-updater runs only in the packaged app (the GitHub workflow).
 */
import type { AppUpdater } from 'electron-updater';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../../src/shared/errors';
import type { UpdatePolicy, UpdaterPort } from '../core';

export interface UpdaterGlue {
  /** For createAppCore's `updates` option. */
  options: { port: UpdaterPort; builtFeed: boolean };
  /** Hands the updater's events to the core's rule (once the core exists). */
  connect(policy: UpdatePolicy): void;
}

export function electronUpdater(options: { resourcesPath: string; logError: (line: string) => void }): UpdaterGlue {
  let policy: UpdatePolicy | null = null;
  let updater: Promise<AppUpdater> | null = null;

  const load = (rule: UpdatePolicy) =>
    (updater ??= import('electron-updater').then(({ autoUpdater }) => {
      autoUpdater.autoDownload = true;
      autoUpdater.autoInstallOnAppQuit = true;
      autoUpdater.allowPrerelease = false;
      autoUpdater.allowDowngrade = false;
      autoUpdater.logger = {
        info: () => {},
        warn: (message: unknown) => options.logError(`updates: ${String(message)}`),
        error: (message: unknown) => options.logError(`updates: ${String(message)}`),
      };
      const settings = rule.settings;
      if (settings.enabled && settings.feedUrl) autoUpdater.setFeedURL({ provider: 'generic', url: settings.feedUrl });
      autoUpdater.on('checking-for-update', () => rule.checking());
      autoUpdater.on('update-available', (info) => rule.available(info.version));
      autoUpdater.on('update-not-available', () => rule.notAvailable());
      autoUpdater.on('download-progress', (progress) => rule.progress(progress.percent));
      autoUpdater.on('update-downloaded', (info) => setImmediate(() => rule.downloaded(info.version)));
      autoUpdater.on('error', (error) => rule.failed(errorMessage(error)));
      return autoUpdater;
    }));

  const port: UpdaterPort = {
    async check() {
      if (!policy) throw new Error('the updater is not connected to the app core');
      const autoUpdater = await load(policy);
      // A failed check is reported through the `error` event (above); the promise's rejection is the same error.
      await autoUpdater.checkForUpdates().catch(() => undefined);
    },
    setInstallOnQuit(allowed) {
      void updater?.then((autoUpdater) => {
        autoUpdater.autoInstallOnAppQuit = allowed;
      });
    },
  };

  return {
    options: { port, builtFeed: existsSync(join(options.resourcesPath, 'app-update.yml')) },
    connect(rule) {
      policy = rule;
    },
  };
}
