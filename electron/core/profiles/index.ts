/**
 * The profiles (Production, Staging, Local demo and staff's own): the organisation's built-in
 * addresses, the profiles file in the data folder, and the ids. Used by app-core.ts.
 */
export type { BuiltInSettings, BuiltInSource } from './built-in-profiles';
export { ProfileStore } from './profile-store';
