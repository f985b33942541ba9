/**
 * What a proxy sees, byte for byte: a TCP pass-through on a free loopback port in front of a real
 * proxy (tinyproxy, test/support/tinyproxy.ts) that keeps every byte a client sends it. tinyproxy's
 * own log has the request lines but no headers; the tap has the headers too, so a test can say
 * that no `Authorization` (the service's key) ever reached the proxy in clear text. Inside a
 * CONNECT tunnel to an https:// service the tap sees the CONNECT request and then TLS records only.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface ProxyTap {
  /** `127.0.0.1:PORT`: give this to the app as the proxy. */
  address: string;
  port: number;
  /** Every byte clients sent, in order (latin1, so any byte survives). */
  seen(): string;
  /** How many connections clients opened. */
  connections(): number;
  stop(): Promise<void>;
}

export function startProxyTap(upstreamPort: number): Promise<ProxyTap> {
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  let opened = 0;
  const server = createServer((client) => {
    opened += 1;
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({
        address: `127.0.0.1:${port}`,
        port,
        seen: () => Buffer.concat(chunks).toString('latin1'),
        connections: () => opened,
        stop: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
