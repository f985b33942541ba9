/**
 * The e2e fixtures (../fixtures.ts) with a real nginx gateway (test/support/nginx.ts) between
 * the app and the local service: `service.url` is the gateway's address, so the app (Local
 * demo) and the test's own direct requests both go through it, as they would behind a real
 * gateway. Set the gateway per file with `test.use({ gatewayOptions: { mode: '429', … } })`.
 */
import { nginxAvailable, startGateway, type GatewayOptions, type RunningGateway } from '../../support/nginx';
import { test as base, type E2eService } from '../fixtures';

export type E2eGatewayOptions = Omit<GatewayOptions, 'upstream'>;

interface GatewayFixtures {
  gatewayOptions: E2eGatewayOptions;
  gateway: RunningGateway;
}

type GatewayedService = E2eService & { readonly gateway: RunningGateway; readonly directUrl: string };

export const test = base.extend<GatewayFixtures>({
  gatewayOptions: [{ mode: '429' }, { option: true }],

  // The base `service` is started first; the gateway goes in front of it.
  service: async ({ service, gatewayOptions }, use, testInfo) => {
    // Installed by scripts/install-debian-packages.sh; the macOS and Windows runners have none.
    testInfo.skip(!nginxAvailable(), 'nginx is not installed (apt-get install -y nginx)');
    const gateway = await startGateway({ ...gatewayOptions, upstream: service.url });
    const fronted = Object.create(service, {
      url: { value: gateway.url, enumerable: true },
      directUrl: { value: service.url, enumerable: true },
      gateway: { value: gateway, enumerable: true },
    }) as GatewayedService;
    await use(fronted);
    await gateway.stop();
  },

  gateway: async ({ service }, use) => {
    await use((service as GatewayedService).gateway);
  },
});

export { expect } from '../fixtures';
