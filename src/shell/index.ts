/**
 * What every screen stands on: one store per app-wide fact (the clock, the screen shown, whether
 * each service is reachable, the profiles, what is known of each key, the app's updates), saving a file, and the
 * context through which screens read them. No screens here: every feature may use the shell.
 */
export { ClockStore, formatDuration, formatReset } from './clock.svelte';
export { ConnectivityStore, type Reachability, reachabilityText } from './connectivity.svelte';
export { getAppContext, setAppContext, type AppContext } from './context';
export { FileExportStore } from './file-export.svelte';
export { KeysStore } from './keys.svelte';
export { HREF, NavigationStore, type Route } from './navigation.svelte';
export { kindBadge, kindLabel, ProfileListStore } from './profile-list.svelte';
export { describeUpdate, UpdatesStore, updateNotice } from './updates.svelte';
