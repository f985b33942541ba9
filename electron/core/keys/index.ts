/**
 * API keys: kept in the OS keychain bound to the origin they were saved for, what is known of
 * each (none, saved, accepted, refused), and the scrubber that keeps every key out of whatever
 * leaves the core; the keys' channels (key-channels.ts). Used by app-core.ts, the service client and
 * the router.
 */
export { storeBoundKey, type BoundKey } from './bound-key';
export { keyChannels, type KeyChannels } from './key-channels';
export { KeyService } from './key-service';
export { KeyStatusTracker } from './key-status';
export { DEFAULT_KEYCHAIN_SERVICE } from './keytar-secret-store';
export { openOsKeychain } from './os-keychain';
export { ProxyLogins } from './proxy-logins';
export { bounded, LIMITS, Scrubber, scrubDiagnosticEntry, scrubResult } from './scrub';
export { KeychainUnavailableError, type SecretStore } from './secret-store';
