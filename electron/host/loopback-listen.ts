/**
 * The browser host listens on both loopback addresses of this computer, on one port: 127.0.0.1
 * and [::1]. Its address is a name under `.localhost`, which Chromium resolves to [::1] first and
 * then 127.0.0.1 (net/dns/host_resolver_manager.cc, `ResolveLocalHostname`: `IPv6Localhost`
 * before `IPv4Localhost`), connecting to the first that accepts. A host on 127.0.0.1 alone leaves
 * [::1]:PORT free for any other user of the computer, whose server would then receive the launch
 * link, the session cookie and every request (issue 31, item 1). So the host holds both, and when
 * either is held by someone else it does not start (`AddressTakenError`), whatever the port: a
 * port it was given or remembers is refused, a free port it picks itself is traded for another.
 *
 * Node semantics (checked with `ss -ltn` and a second bind on Linux): a server on `::1` is bound
 * to that address alone (`ipv6Only` only matters for `::`, it is set so the intent is plain); while
 * the host holds 127.0.0.1:PORT and [::1]:PORT, binding [::1], [::], 0.0.0.0, 127.0.0.1 or
 * ::ffff:127.0.0.1 on PORT fails with EADDRINUSE, for any user.
 */
import type { Server } from 'node:http';
import { t } from '../../src/shared/i18n';

/** How an address is written beside a port: `127.0.0.1`, `[::1]`. */
export type LoopbackAddress = '127.0.0.1' | '[::1]';

/** One of the two loopback addresses is held by another program on the port asked for. */
export class AddressTakenError extends Error {
  override readonly name = 'AddressTakenError';
  /** As Node's own error says it, so callers that look for EADDRINUSE still find it. */
  readonly code = 'EADDRINUSE';

  constructor(
    readonly address: LoopbackAddress,
    readonly port: number,
  ) {
    super(t('host.addressTaken', { address, port }));
  }
}

/** How many free ports the host tries when it picks one itself and its [::1] is taken. */
const PICK_TRIES = 20;

/** Errors of a bind on ::1 that mean this computer has no IPv6 loopback address at all. */
const NO_IPV6_LOOPBACK = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT']);

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host, ipv6Only: host === '::1' }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
  });
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

export interface LoopbackListeners {
  port: number;
  /** The servers listening (two; one where this computer has no IPv6 loopback address). */
  servers: Server[];
}

/**
 * Listens with a server from `makeServer` on 127.0.0.1:`port` and another on [::1]:`port`
 * (`port` 0: a free one, the same on both). Throws `AddressTakenError` when either address is
 * held by another program on a port given; any other error as Node gives it.
 */
export async function listenOnLoopback(makeServer: () => Server, port: number): Promise<LoopbackListeners> {
  for (let tries = 1; ; tries += 1) {
    const v4 = makeServer();
    try {
      await listen(v4, port, '127.0.0.1');
    } catch (error) {
      if (codeOf(error) === 'EADDRINUSE' && port !== 0) throw new AddressTakenError('127.0.0.1', port);
      throw error;
    }
    const bound = (v4.address() as { port: number }).port;
    const v6 = makeServer();
    try {
      await listen(v6, bound, '::1');
      return { port: bound, servers: [v4, v6] };
    } catch (error) {
      const code = codeOf(error);
      // No IPv6 loopback on this computer (IPv6 switched off, or lo without ::1): Chromium cannot
      // connect to [::1] either (its attempt fails and it goes on to 127.0.0.1), and no one else can
      // listen there, so 127.0.0.1 alone is safe.
      if (code !== undefined && NO_IPV6_LOOPBACK.has(code)) return { port: bound, servers: [v4] };
      await close(v4);
      if (code !== 'EADDRINUSE') throw error;
      // A port picked here was free on 127.0.0.1 only: another program holds its [::1]. Pick another.
      if (port === 0 && tries < PICK_TRIES) continue;
      throw new AddressTakenError('[::1]', bound);
    }
  }
}
