/**
 * What the app knows of its requests: the rate meter in the title bar (the governor's snapshot)
 * and the Diagnostics screen (the request log), loaded on first visit. Used by the app root.
 */
export { DiagnosticsStore } from './diagnostics.svelte';
export { GovernorStore } from './governor.svelte';
export { default as RateMeter } from './RateMeter.svelte';

/** The Diagnostics screen, loaded on first visit (not part of the app's start-up). */
export const loadDiagnosticsScreen = () => import('./DiagnosticsScreen.svelte');
