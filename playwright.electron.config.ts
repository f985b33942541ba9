/**
 * The same end-to-end suite with the app opened as the desktop app, in Electron (issue 21):
 * `node scripts/with-keyring.mjs npx playwright test -c playwright.electron.config.ts`
 * (on Linux inside `xvfb-run -a` when there is no display).
 * - `electron`: every user-level spec of test/e2e/ but those about the browser host alone
 *   (`HOST_ONLY_SPECS`), plus the Electron-only specs in test/e2e/electron/, through
 *   Playwright's `_electron.launch` of the built app folder. Where the Electron binary is not
 *   installed (our machines cannot download it) every test is skipped and the reason printed once;
 *   with `ADOPTION_REQUIRE_ELECTRON=1` (every CI job) the run fails instead, global setup naming
 *   the missing binary in one line.
 * - `packaged`: the packaged app (`electron-builder --dir` with the real Electron) started as
 *   staff start it; skipped with the reason unless `ADOPTION_PACKAGED_APP` names its executable
 *   (with `ADOPTION_REQUIRE_ELECTRON=1`, each test fails naming it).
 * The project's GitHub workflow (.github/workflows/ci.yml) runs both on Linux, macOS and Windows.
 */
import { defineConfig } from '@playwright/test';
import { APP_KIND_ENV, HOST_ONLY_SPECS } from './test/e2e/support/app-kind';
import { platformSpecsLeftOut } from './test/e2e/support/platform-specs';

// Read by test/e2e/fixtures.ts in every worker (workers load this config before the specs).
process.env[APP_KIND_ENV] = 'electron';

// What cannot run on this system is left out, said once (in the runner, not in every worker).
const leftOut = platformSpecsLeftOut(process.platform);
if (!process.env.TEST_WORKER_INDEX) for (const line of leftOut.lines) console.log(line);

export default defineConfig({
  testDir: 'test/e2e',
  globalSetup: './test/e2e/support/global-setup.ts',
  // One app window at a time: each test starts its own Electron, which owns the screen's focus.
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright-electron.json' }]],
  use: { trace: 'retain-on-failure' },
  projects: [
    {
      name: 'electron',
      testMatch: ['*.spec.ts', 'electron/*.spec.ts'],
      testIgnore: [...Object.keys(HOST_ONLY_SPECS), '*.soak.spec.ts', 'packaged/**', ...leftOut.files],
    },
    {
      name: 'packaged',
      testMatch: ['packaged/*.spec.ts'],
      testIgnore: leftOut.files,
    },
  ],
});
