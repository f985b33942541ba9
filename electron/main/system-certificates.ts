/**
 * The core's requests go through Node's own `fetch` in the main process (index.ts says why).
 * Node trusts its bundled Mozilla roots only; Chromium trusts the operating system's store,
 * where an organisation installs its own roots (a TLS-inspecting proxy, an internal CA). This
 * adds the system's roots to Node's defaults, where the runtime can: `tls.getCACertificates`
 * (Node 22.15+) and `tls.setDefaultCACertificates` (Node 22.19+/24.5+; Electron 45 ships Node
 * 24). On an older runtime it does nothing and says so.
 *
 * Inside Electron, `tls.getCACertificates('system')` has been measured to return no certificate on
 * macOS (Electron's Node is built on BoringSSL; different-ai/openwork#3203 measured 0 there). When
 * the system store reads as empty, the roots are read the way the system keeps them instead:
 * - macOS: Apple's roots and the admin keychain, where IT and device management install an
 *   organisation's root (`security find-certificate -a -p` of SystemRootCertificates.keychain and
 *   /Library/Keychains/System.keychain, both writable by administrators only; never the user's login
 *   keychain). Only self-signed CA certificates are taken: a root, not a leaf or an intermediate.
 * - Linux: the distribution's bundle (the paths Go's crypto/x509 reads, root_linux.go).
 * The main process prints both counts at start; the packaged-app spec checks on every system that
 * the system's roots were read (test/e2e/packaged).
 */
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface TlsLike {
  getCACertificates?: (type: 'default' | 'system') => string[];
  setDefaultCACertificates?: (certificates: string[]) => void;
}

/** Where the system keeps its roots when Node's own reading finds none: PEM text, or '' where there is none. */
export type ReadSystemRoots = (platform: NodeJS.Platform) => string;

const MAC_KEYCHAINS = [
  '/System/Library/Keychains/SystemRootCertificates.keychain',
  '/Library/Keychains/System.keychain',
];
const LINUX_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt',
  '/etc/pki/tls/certs/ca-bundle.crt',
  '/etc/ssl/ca-bundle.pem',
  '/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem',
  '/etc/ssl/cert.pem',
];

export const readSystemRoots: ReadSystemRoots = (platform) => {
  try {
    if (platform === 'darwin')
      return execFileSync('/usr/bin/security', ['find-certificate', '-a', '-p', ...MAC_KEYCHAINS], {
        encoding: 'utf8',
        timeout: 10_000,
        maxBuffer: 32 * 1024 * 1024,
      });
    if (platform === 'linux') {
      for (const bundle of LINUX_BUNDLES) {
        try {
          return readFileSync(bundle, 'utf8');
        } catch {
          // The next place.
        }
      }
    }
  } catch {
    // No roots that way either: Node's defaults stay.
  }
  return '';
};

/** The self-signed CA certificates in `pem` (roots only), as PEM, each once. */
export function rootsIn(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  const roots = new Set<string>();
  for (const block of blocks) {
    try {
      const certificate = new X509Certificate(block);
      if (certificate.ca && certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey))
        roots.add(certificate.toString());
    } catch {
      // Not a certificate Node can read: left out.
    }
  }
  return [...roots];
}

/** How many roots the system has, and how many of them Node did not trust already; null when the runtime cannot. */
export function trustSystemCertificates(
  tls: TlsLike,
  options: { platform?: NodeJS.Platform; readRoots?: ReadSystemRoots } = {},
): { system: number; added: number } | null {
  if (typeof tls.getCACertificates !== 'function' || typeof tls.setDefaultCACertificates !== 'function') return null;
  const defaults = tls.getCACertificates('default');
  let system = tls.getCACertificates('system');
  if (system.length === 0)
    system = rootsIn((options.readRoots ?? readSystemRoots)(options.platform ?? process.platform));
  const known = new Set(defaults);
  const added = system.filter((certificate) => !known.has(certificate));
  if (added.length > 0) tls.setDefaultCACertificates([...defaults, ...added]);
  return { system: system.length, added: added.length };
}
