/**
 * The event toolkit: spreadsheet import, CSV export and printing of a list, and "Prepare for the
 * event". The Export and Print buttons of the list screens (ListTools) are part of the start-up;
 * the import and print screens load on first use. Used by the app root and the list screens.
 */
export type { ListToolsSession } from './list-tools';
export { default as ListTools } from './ListTools.svelte';
export { PrepareForEventStore } from './prepare-for-event.svelte';
export { PrintStore } from './print.svelte';

/** The Import screen, loaded on first visit (not part of the app's start-up). */
export const loadImportScreen = () => import('./ImportScreen.svelte');
/** The print view, loaded on first visit (not part of the app's start-up). */
export const loadPrintView = () => import('./PrintView.svelte');
