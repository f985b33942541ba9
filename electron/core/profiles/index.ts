/**
 * The profiles (Production, Staging, Local demo and staff's own): the organisation's built-in
 * addresses, the profiles file in the data folder, the ids, and the profiles' channels. Used by
 * app-core.ts.
 */
export type { BuiltInSettings, BuiltInSource } from './built-in-profiles';
export { profileChannels } from './profile-channels';
export { ProfileRegistry } from './profile-registry';
