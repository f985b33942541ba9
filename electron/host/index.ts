/** The loopback browser host (see server.ts). */
export { startBrowserHost, MAX_BODY_BYTES, TOKEN_HEADER, type BrowserHost, type BrowserHostOptions } from './server';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, TOKEN_META_NAME } from './static-files';
