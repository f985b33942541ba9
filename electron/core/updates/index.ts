/**
 * The app's own updates: whether the organisation allows them and from where
 * (update-settings.ts), whether this copy can check who made an update (update-trust.ts), and
 * when to check and when a downloaded update may install (update-policy.ts), run by the core with
 * its channel (update-channels.ts). electron/main drives electron-updater by these.
 */
export { updateChannels } from './update-channels';
export { CHECK_EVERY_MS, FIRST_CHECK_AFTER_MS, notInstalledApp, UpdatePolicy, type UpdaterPort } from './update-policy';
export { readUpdateSettings, type UpdateSettings, UpdatesBlock } from './update-settings';
export {
  type InstallFacts,
  macTeamFromCodesign,
  readInstallFacts,
  readMacTeam,
  readWindowsSigner,
  trustedSettings,
  updaterConfig,
  updateTrust,
  type UpdateTrust,
} from './update-trust';
