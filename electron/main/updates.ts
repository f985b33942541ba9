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
 * - Whom to trust and where to look: never the `app-update.yml` electron-builder writes into
 *   installers (`resources/app-update.yml`, ElectronAppAdapter.js `appUpdateConfigPath`). The glue
 *   writes the updater's own config into the data folder (core/updates `updaterConfig`: the
 *   organisation's feed, the cache folder's name, on Windows the publisher an update must be signed
 *   by) and points electron-updater at it (`updateConfigPath`, AppUpdater.js: it resets the provider
 *   and every later read, the download's `configOnDisk` included, comes from that file). Only when
 *   the core's rule says updates are on: the organisation gave an https address and this copy can
 *   check who made an update (core/updates/update-trust.ts).
 * Checked by reading: electron-updater runs only in the packaged app (the GitHub workflow).
 */
import type { AppUpdater } from 'electron-updater';
import { join } from 'node:path';
import { errorMessage } from '../../src/shared/basics/errors';
import {
  nodeSettingsFs,
  readInstallFacts,
  type UpdatePolicy,
  type UpdaterPort,
  updaterConfig,
  updateTrust,
  type UpdateTrust,
  writeFileAtomic,
} from '../core';

export interface UpdaterGlue {
  /** For createAppCore's `updates` option. */
  options: { port: UpdaterPort; trust: UpdateTrust };
  /** Hands the updater's events to the core's rule (once the core exists). */
  connect(policy: UpdatePolicy): void;
}

/** The updater's own config, in the data folder (never the installer's `resources/app-update.yml`). */
export const UPDATER_CONFIG = 'updater.json';

export async function electronUpdater(options: {
  userDataDir: string;
  productName: string;
  logError: (line: string) => void;
}): Promise<UpdaterGlue> {
  const trust = updateTrust(
    await readInstallFacts({
      platform: process.platform,
      executable: process.execPath,
      productName: options.productName,
    }),
  );
  let policy: UpdatePolicy | null = null;
  let updater: Promise<AppUpdater> | null = null;

  const load = (rule: UpdatePolicy) =>
    (updater ??= import('electron-updater').then(async ({ autoUpdater }) => {
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
      // The rule never checks while off; this is the same condition, said again where it matters.
      if (!settings.enabled || !trust.trusted) throw new Error('updates are off');
      const configPath = join(options.userDataDir, UPDATER_CONFIG);
      await writeFileAtomic(nodeSettingsFs, configPath, updaterConfig(settings.feedUrl, trust));
      autoUpdater.updateConfigPath = configPath;
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
    options: { port, trust },
    connect(rule) {
      policy = rule;
    },
  };
}
