/**
 * The browser host's protocol, shared by the host (electron/host) and its client in the
 * renderer (src/transport.ts):
 * - the host prints a one-time launch URL, `/?launch=<secret>`; opening it trades the secret
 *   for a session cookie (`HttpOnly; SameSite=Strict`, named after the port) and redirects
 *   to `/`. Without that session every request is refused (the page says how to open the app);
 * - `POST /api/<channel>` (a call of the app API) with the JSON input as body answers the result envelope
 *   `{ ok, data | error }` as JSON;
 * - `GET /events` streams the core's events (Server-Sent Events: `event` is the EventName,
 *   `data` the JSON payload).
 * The page and its scripts never see a token: the browser sends the cookie by itself.
 */
export const LAUNCH_PARAM = 'launch';
/** Cookies are per host, not per port: the port in the name keeps two hosts apart. */
export const sessionCookieName = (port: number): string => `adoption-desk-session-${port}`;
/** The path of the app API's calls: `POST /api/<channel>`. */
export const API_PREFIX = '/api/';
export const EVENTS_PATH = '/events';
