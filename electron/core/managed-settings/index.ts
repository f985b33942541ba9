/**
 * The organisation's managed settings: the Production and Staging addresses IT sets in the
 * operating system's policy store (or, where it passes the same ownership checks, the
 * machine-wide `profiles.json` of earlier versions). Read once at start by electron/main.
 */
export { machineSettingsFile, organisationSettings, type OrganisationSettingsOptions } from './organisation-settings';
export {
  LINUX_POLICY_FOLDER,
  MAC_POLICY_DOMAIN,
  POLICY_DEFINITIONS,
  POLICY_NAMES,
  type PolicyValues,
  WINDOWS_POLICY_KEY,
} from './policies';
export { type RunPowerShell, windowsPowerShell } from './windows-ownership';
