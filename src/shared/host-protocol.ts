/**
 * The browser host's protocol, shared by the host (electron/host) and its client in the
 * renderer (src/lib/bridge.ts):
 * - the host prints a one-time launch URL, `/?launch=<secret>`; opening it trades the secret
 *   for a session cookie (`HttpOnly; SameSite=Strict`, named after the port) and redirects
 *   to `/`. Without that session every request is refused (the page says how to open the app);
 * - `POST /bridge/<channel>` with the JSON input as body answers the result envelope
 *   `{ ok, data | error }` as JSON;
 * - `GET /events` streams the core's events (Server-Sent Events: `event` is the EventName,
 *   `data` the JSON payload).
 * The page and its scripts never see a token: the browser sends the cookie by itself.
 */
export const LAUNCH_PARAM = 'launch';
/** Cookies are per host, not per port: the port in the name keeps two hosts apart. */
export const sessionCookieName = (port: number): string => `adoption-desk-session-${port}`;
export const BRIDGE_PREFIX = '/bridge/';
export const EVENTS_PATH = '/events';
