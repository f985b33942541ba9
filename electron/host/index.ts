/**
 * The loopback browser host: the whole app (core and renderer) in one Node process, served to a
 * browser over HTTP and Server-Sent Events (`npm run host`, the demo, the e2e fixtures, the
 * benchmarks). `cli.ts` is its command line.
 */
export { startBrowserHost, MAX_REQUEST_BODY_BYTES, type BrowserHost, type BrowserHostOptions } from './server';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from './static-files';
export { LAUNCH_PARAM, sessionCookieName } from '../../src/shared/app-api/host-protocol';
export { envLanguage, useEnvLanguage } from './env-language';
export { startAppOnHost, PROJECT_RESOURCES_DIR, type AppOnHost, type AppOnHostOptions } from './app-on-host';
