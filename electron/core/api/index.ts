/**
 * Serving the app API (src/shared/app-api/api.ts) to every window: the router that parses and answers
 * each channel, and the bus that carries the core's events. Used by app-core.ts; the hosts get
 * both through electron/core.
 */
export { createEventBus, type EventBus } from './event-bus';
export { createRouter, type Handlers, type Router, serveChannels } from './router';
