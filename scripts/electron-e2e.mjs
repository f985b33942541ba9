#!/usr/bin/env node
// One Electron e2e project, run so that it cannot pass without testing (issue 30):
//   node scripts/electron-e2e.mjs --project electron|packaged [more playwright arguments]
// 1. lists the project's tests (`playwright test --list`): what this system must run;
// 2. runs them inside scripts/with-keyring.mjs (a real Secret Service on Linux);
// 3. with ADOPTION_REQUIRE_ELECTRON=1 (every CI job), fails unless every listed test ran and at least
//    one was listed: a skip, a missing binary or an emptied selection is red, not green.
// The GitHub workflows call this; `npm test` does the same for the `electron` project (test-all.mjs).
import { spawnSync } from 'node:child_process';
import {
  checkElectronProject,
  ELECTRON_CONFIG,
  ELECTRON_REPORT,
  listElectronProject,
  readReport,
} from './lib/electron-suite.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--project');
const project = at >= 0 ? args[at + 1] : undefined;
if (project !== 'electron' && project !== 'packaged') {
  console.error('usage: node scripts/electron-e2e.mjs --project electron|packaged [playwright arguments]');
  process.exit(2);
}
const extra = args.filter((_, i) => i !== at && i !== at + 1);
const listReport = listElectronProject(project, extra);
const run = spawnSync(
  process.execPath,
  ['scripts/with-keyring.mjs', 'npx', 'playwright', 'test', '-c', ELECTRON_CONFIG, '--project', project, ...extra],
  { stdio: 'inherit' },
);
const complete = checkElectronProject(project, listReport, readReport(ELECTRON_REPORT));
process.exit(run.status === 0 && listReport && complete ? 0 : 1);
