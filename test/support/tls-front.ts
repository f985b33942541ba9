/**
 * The local service as an organisation's service looks to the app behind a proxy: at an https://
 * address that is not this computer's loopback (the app never sends a loopback address through a
 * proxy, and never sends the key through one outside TLS; electron/core/http/proxy.ts). An HTTPS
 * server on one of this computer's own non-loopback IPv4 addresses (os.networkInterfaces: a
 * container's or a runner's eth0), with a certificate made for that address by `openssl` for this
 * run, forwards each request to the local service over plain HTTP and passes the answer back as it
 * is (status, headers, body).
 *
 * `trustFrontCertificate` adds that certificate to Node's default trusted roots in this process
 * (`tls.setDefaultCACertificates`, Node 22.19+/24.5+), as an organisation installs its own root:
 * the app core's requests, direct or through a CONNECT tunnel, then verify it like any server's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { createServer } from 'node:https';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';

/** One of this computer's own IPv4 addresses that is not loopback, or null when it has none. */
export function nonLoopbackAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return null;
}

/** Why the front cannot run here, or null when it can. */
export function tlsFrontUnavailable(): string | null {
  if (nonLoopbackAddress() === null) return 'this computer has no IPv4 address besides loopback';
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    return 'openssl is not installed (apt-get install -y openssl)';
  }
  const node = tls as { getCACertificates?: unknown; setDefaultCACertificates?: unknown };
  if (typeof node.getCACertificates !== 'function' || typeof node.setDefaultCACertificates !== 'function')
    return `Node ${process.version} cannot add a trusted root at run time (needs 22.19+ or 24.5+)`;
  return null;
}

export interface TlsFront {
  /** The service's address through the front, e.g. `https://192.0.2.2:43121/v1`. */
  readonly url: string;
  /** `192.0.2.2:43121`. */
  readonly host: string;
  /** The certificate (PEM), to trust. */
  readonly certificate: string;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host']);

/** Starts a front for the service at `upstreamUrl` (`http://127.0.0.1:PORT/v1`). */
export async function startTlsFront(upstreamUrl: string): Promise<TlsFront> {
  const why = tlsFrontUnavailable();
  if (why) throw new Error(`the HTTPS front cannot run: ${why}`);
  const address = nonLoopbackAddress() ?? '';
  const folder = mkdtempSync(join(tmpdir(), 'adoption-tls-front-'));
  const keyFile = join(folder, 'key.pem');
  const certFile = join(folder, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=Adoption Desk test service',
      '-addext',
      `subjectAltName=IP:${address}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(keyFile, 'utf8');
  const certificate = readFileSync(certFile, 'utf8');
  rmSync(folder, { recursive: true, force: true });
  const upstream = new URL(upstreamUrl);

  const server = createServer({ key, cert: certificate }, (request: IncomingMessage, response) => {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
    }
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers },
      (answer) => {
        const back: OutgoingHttpHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP_BY_HOP.has(name) && value !== undefined) back[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(response);
      },
    );
    forward.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(forward);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, address, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const host = `${address}:${port}`;
  return {
    url: `https://${host}${upstream.pathname}`,
    host,
    certificate,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

interface CaTls {
  getCACertificates(type: 'default'): string[];
  setDefaultCACertificates(certificates: string[]): void;
}

/**
 * Trusts `certificate` in this process until the returned function is called (which restores
 * the roots as they were).
 */
export function trustFrontCertificate(certificate: string): () => void {
  const api = tls as unknown as CaTls;
  const before = api.getCACertificates('default');
  api.setDefaultCACertificates([...before, certificate]);
  return () => api.setDefaultCACertificates(before);
}
