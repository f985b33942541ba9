/**
 * End-to-end tests. Run inside a private keyring session (the fixtures use the real OS
 * keychain): `node scripts/with-keyring.mjs npx playwright test`.
 * - `chromium`: the app through the loopback browser host in Debian's Chromium (or the one
 *   `ADOPTION_CHROMIUM` names).
 * The same specs in Electron: playwright.electron.config.ts.
 * The global setup builds the app once per run into a temporary folder (see
 * test/e2e/support/global-setup.ts), so parallel runs never clobber `out/`.
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/support/global-setup.ts',
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // A hung test fails after a minute (as in Electron's config); 30 s cut the screenshot walk's axe
  // checks short on a busy machine. Speed is the benchmarks' business.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: { trace: 'retain-on-failure' },
  projects: [
    {
      name: 'chromium',
      // The long soak variants run only with SOAK=1 (npm run test:soak:e2e).
      testIgnore: ['electron/**', 'packaged/**', ...(process.env.SOAK ? [] : ['**/*.soak.spec.ts'])],
      use: {
        browserName: 'chromium',
        launchOptions: { executablePath: process.env.ADOPTION_CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS },
      },
    },
  ],
});
