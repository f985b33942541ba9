/**
 * The renderer's Content Security Policy, one string for both transports: the browser host
 * sends it as a header, Electron's main adds it to every response of the session (the page
 * also carries it as a meta tag, which cannot hold `frame-ancestors`).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
