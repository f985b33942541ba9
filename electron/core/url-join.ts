/** Joining a profile's base URL with path segments safely, and keeping the key out of results. */
import type { Result } from '../../src/shared/result';

/**
 * `base` + encoded `segments` (+ `query`). Each segment is percent-encoded, and `.`/`..`
 * segments are refused, so no segment can leave the base path.
 */
export function buildUrl(base: string, segments: string[], query?: URLSearchParams): URL {
  const url = new URL(base);
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') throw new RangeError('unsafe path segment');
  }
  const basePath = url.pathname.replace(/\/+$/, '');
  url.pathname = `${basePath}/${segments.map(encodeURIComponent).join('/')}`;
  url.search = query ? query.toString() : '';
  url.hash = '';
  return url;
}

/** Replaces every occurrence of `key` in an error message (defence in depth). */
export function redactKey<T>(result: Result<T>, key: string): Result<T> {
  if (result.ok || key.length < 4 || !result.error.message.includes(key)) return result;
  return { ok: false, error: { ...result.error, message: result.error.message.split(key).join('[hidden key]') } };
}
