/**
 * The app core's public entry: what the two hosts (electron/main, electron/host) and the tools
 * in scripts/ use. The core is plain Node (no Electron): `createAppCore` wires the subsystems
 * below (docs/architecture.md, "Folders"), and nothing outside electron/core reaches into them.
 */
export { createAppCore, type AppCore, type AppCoreOptions } from './app-core';
export type { EventBus, Router } from './api';
export { CONTENT_SECURITY_POLICY } from './content-security-policy';
export { defaultDataDir, nodeSettingsFs, writeFileAtomic } from './data-folder';
export {
  MAC_POLICY_DOMAIN,
  machineSettingsFile,
  organisationSettings,
  POLICY_DEFINITIONS,
  POLICY_NAMES,
  type PolicyValues,
  WINDOWS_POLICY_KEY,
} from './managed-settings';
export type { BuiltInSource } from './profiles';
export type { RecoveredEntry, RecoverReport } from './safety-copy';
export {
  readInstallFacts,
  type UpdatePolicy,
  type UpdaterPort,
  updaterConfig,
  updateTrust,
  type UpdateTrust,
} from './updates';
export { BodyTooLarge, chromiumProxyResolver, envProxyResolver, type ProxyResolver, readCapped } from './http';
export {
  DEFAULT_KEYCHAIN_SERVICE,
  KeychainUnavailableError,
  openOsKeychain,
  storeBoundKey,
  type SecretStore,
} from './keys';
