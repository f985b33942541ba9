/**
 * Sending the outbox: the engine (when each entry is tried, what one try does, how a doubt is
 * settled, which window sends), the queue as screens see it (OutboxStore), and what staff see of
 * it: the sync panel and the indicator in the title bar. Used by the app root.
 */
export { OutboxStore } from './outbox.svelte';
export type { SyncDriver } from './sync-driver';
export { SyncEngine } from './sync-engine';
export { SharedSync, SYNC_CHANNEL } from './sync-leader';
export { default as SyncIndicator } from './SyncIndicator.svelte';
export { default as SyncPanel } from './SyncPanel.svelte';
