/**
 * The core's requests go through Node's own `fetch` in the main process (index.ts says why).
 * Node trusts its bundled Mozilla roots only; Chromium trusts the operating system's store,
 * where an organisation installs its own roots (a TLS-inspecting proxy, an internal CA). This
 * adds the system's roots to Node's defaults, where the runtime can: `tls.getCACertificates`
 * (Node 22.15+) and `tls.setDefaultCACertificates` (Node 22.19+/24.5+; Electron 45 ships Node
 * 24). On an older runtime it does nothing and says so.
 */
export interface TlsLike {
  getCACertificates?: (type: 'default' | 'system') => string[];
  setDefaultCACertificates?: (certificates: string[]) => void;
}

/** Returns how many system roots were added, or null when the runtime cannot. */
export function trustSystemCertificates(tls: TlsLike): number | null {
  if (typeof tls.getCACertificates !== 'function' || typeof tls.setDefaultCACertificates !== 'function') return null;
  const defaults = tls.getCACertificates('default');
  const system = tls.getCACertificates('system');
  const known = new Set(defaults);
  const added = system.filter((certificate) => !known.has(certificate));
  if (added.length > 0) tls.setDefaultCACertificates([...defaults, ...added]);
  return added.length;
}
