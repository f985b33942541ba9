/** The loopback browser host (see server.ts). */
export { startBrowserHost, MAX_REQUEST_BODY_BYTES, type BrowserHost, type BrowserHostOptions } from './server';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './static-files';
export { LAUNCH_PARAM, sessionCookieName } from '../../src/shared/host-protocol';
export { startAppOnHost, PROJECT_RESOURCES_DIR, type AppOnHost, type AppOnHostOptions } from './app-on-host';
