/**
 * One HTTP exchange with a service: the bearer key sent only to its own origin, timeouts on the
 * injected clock, redirects kept within the origin, and bodies read with a cap. Used by the
 * service client; the browser host uses the capped reader for its own requests.
 */
export { BodyTooLarge, readCapped } from './capped-body';
export { MESSAGES, sendHttp, type HttpExchange, type HttpOptions, type HttpResponse } from './http-client';
export {
  chromiumProxyResolver,
  DIRECT,
  envProxyResolver,
  type ProxyLogin,
  type ProxyResolver,
  ProxyRouter,
} from './proxy';
export { buildUrl } from './url-join';
