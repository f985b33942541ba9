/**
 * The e2e `test` behind the organisation's proxy: a real tinyproxy that asks for a login
 * (test/support/tinyproxy.ts), named to the in-process core by HTTPS_PROXY, and the test's service
 * at an https:// address of this computer that is not loopback (test/support/tls-front.ts), as an
 * organisation's service is. The app never sends a loopback address through a proxy, nor an
 * http:// one (electron/core/http/proxy.ts, issue 31 item 4), so this is the way a proxy is met.
 * `service.url` is the https:// address (the Local demo profile's, and its key's origin); the
 * service's log is the same file. A spec skips its tests, with the reason, where tinyproxy or the
 * https front cannot run: `orgProxyTest.skip(orgProxyUnavailable() !== null, …)` before any fixture.
 */
import { type RunningProxy, startProxy, tinyproxyAvailable } from '../../support/tinyproxy';
import { startTlsFront, tlsFrontUnavailable, trustFrontCertificate } from '../../support/tls-front';
import { envProxyResolver } from '../../../electron/core/http/proxy';
import { type E2eService, test as base } from '../fixtures';

export const PROXY_LOGIN = { username: 'shelter', password: 'proxy-pass-4711' };

/** Why these tests cannot run here, or null. */
export function orgProxyUnavailable(): string | null {
  if (!tinyproxyAvailable()) return 'tinyproxy is not installed (apt-get install -y tinyproxy)';
  const front = tlsFrontUnavailable();
  return front ? `the service cannot be served over https here: ${front}` : null;
}

export const orgProxyTest = base.extend<{ orgProxy: RunningProxy }>({
  // The service at its https:// address; everything else (its key, log, stop and restart) as it is.
  service: async ({ service }, use) => {
    const front = await startTlsFront(service.url);
    const untrust = trustFrontCertificate(front.certificate);
    await use(Object.create(service, { url: { value: front.url } }) as E2eService);
    untrust();
    await front.stop();
  },
  // eslint-disable-next-line no-empty-pattern
  orgProxy: async ({}, use) => {
    const proxy = await startProxy({ login: PROXY_LOGIN });
    await use(proxy);
    await proxy.stop();
  },
  coreOptions: async ({ orgProxy }, use) => {
    await use({ proxy: envProxyResolver({ HTTPS_PROXY: `http://${orgProxy.address}` }) });
  },
});

/** `host:port` of the service's https:// address: what the proxy is asked to CONNECT to. */
export const tunnelTarget = (service: E2eService): string => new URL(service.url).host;
