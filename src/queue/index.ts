/**
 * The queue as staff see it: the store of a profile's outbox as screens read it (QueueStore), the
 * sync panel with its attention entries, and the indicator in the title bar. The sending itself is
 * src/sync's (the engine, no screens). Used by the app root.
 */
export { QueueStore } from './queue.svelte';
export { default as SyncIndicator } from './SyncIndicator.svelte';
export { default as SyncPanel } from './SyncPanel.svelte';
