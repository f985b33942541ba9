/**
 * The app's root: it composes every feature (AppStores, one ProfileSession per profile) and
 * shows them (App.svelte with its title bar and navigation). Nothing imports it but the entry,
 * src/main.ts, which loads it in two steps so that each is evaluated in a task of its own.
 */

/** Step 2 of the start-up: the stores and the data layer. */
export const loadStores = () => import('./app-stores.svelte');
/** Step 3 of the start-up: the components, and Svelte's `mount` to show them. */
export const loadApp = () => import('./app-view');
