/**
 * Joining a profile's base URL with path segments safely: `base` + encoded `segments` (+ `query`). Each segment is percent-encoded, and `.`/`..`
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
