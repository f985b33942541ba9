/**
 * Sending the outbox: the engine alone, no screens (when each entry is tried, what one try does,
 * how a doubt is settled, which window sends: SharedSync). What staff see of the queue is
 * src/queue's. Used by the app root and the queue.
 */
export { RECONCILE_LIMIT } from './reconcile';
export type { SyncDriver, SyncProgress } from './sync-driver';
export { SyncEngine } from './sync-engine';
export { SharedSync, SYNC_CHANNEL } from './shared-sync';
