/**
 * Keys and profiles: the screen (loaded on first visit) where staff pick a profile, set its
 * address and key and name its categories, and the parts shown elsewhere: the profile band of
 * the title bar and the key field of the sync panel, and the proxy logins' store (ProxyLoginsStore,
 * made once by the app root). The profile list and the key state are the shell's stores (every
 * screen reads them). Used by the app root and the sync panel.
 */
/** The API key field, loaded where a screen first needs it (the sync panel asks only when a key is missing or refused). */
export const loadKeyField = () => import('./KeyField.svelte');
export { default as ProfileBand } from './ProfileBand.svelte';
export { ProxyLoginsStore } from './proxy-logins.svelte';

/** The Keys and profiles screen, loaded on first visit (not part of the app's start-up). */
export const loadKeysAndProfilesScreen = () => import('./KeysAndProfilesScreen.svelte');
