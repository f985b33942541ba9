/**
 * The browser host's protocol, shared by the host (electron/host) and its client in the
 * renderer (src/lib/bridge.ts):
 * - the served page carries `<meta name="adoption-host-token" content="…">`, a per-launch token;
 * - `POST /bridge/<channel>` with the token in `x-adoption-token` and the JSON input as body
 *   answers the result envelope `{ ok, data | error }` as JSON;
 * - `GET /events?token=…` streams the core's events (Server-Sent Events: `event` is the
 *   EventName, `data` the JSON payload).
 */
export const HOST_TOKEN_META = 'adoption-host-token';
/** Lower case, as Node reports request headers. */
export const HOST_TOKEN_HEADER = 'x-adoption-token';
export const BRIDGE_PREFIX = '/bridge/';
export const EVENTS_PATH = '/events';
