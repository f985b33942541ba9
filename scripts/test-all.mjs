#!/usr/bin/env node
// `npm test`: every gate and every test runner, then one plain line `N passed, N failed`.
// Gates (format, lint, typecheck, build, security scan) count as one test each. The packaging
// check (electron-builder on a stand-in Electron, test/packaging/) runs as vitest tests.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import {
  checkElectronProject,
  ELECTRON_CONFIG,
  ELECTRON_REPORT,
  electronRequired,
  listElectronProject,
  readReport,
} from './lib/electron-suite.mjs';
import { playwrightFailures, vitestFailures } from './lib/failed-tests.mjs';
import { checkPrerequisites } from './lib/prerequisites.mjs';

const RESULTS = 'test-results';
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
// Each failing test by name with the first line of its error, printed again at the very end so
// that a CI log cut to its last lines still says what failed.
const failedTests = [];

function run(title, command, args) {
  console.log(`\n▶ ${title}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, FORCE_COLOR: '0' } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\n◀ ${title}: exit ${result.status ?? result.signal} in ${seconds} s`);
  return result.status === 0;
}

function gate(title, command, args) {
  if (run(title, command, args)) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(title);
  }
}

function vitest(title, wrapper, projects, file) {
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p])];
  args.push('--reporter=default', '--reporter=json', `--outputFile.json=${file}`);
  const ok = wrapper ? run(title, 'node', [wrapper, 'npx', ...args]) : run(title, 'npx', args);
  const report = readReport(file);
  if (!report) {
    totals.failed += 1;
    failures.push(`${title} (no report)`);
    return;
  }
  failedTests.push(...vitestFailures(title, report));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
  if (report.numFailedTests > 0 || (!ok && report.numFailedTests === 0)) {
    if (report.numFailedTests === 0) totals.failed += 1;
    failures.push(title);
  }
}

function playwright(title, config, file, args = []) {
  const ok = run(title, 'node', ['scripts/with-keyring.mjs', 'npx', 'playwright', 'test', '-c', config, ...args]);
  const report = readReport(file);
  const stats = report?.stats;
  failedTests.push(...playwrightFailures(title, report));
  if (!stats) {
    totals.failed += 1;
    failures.push(`${title} (no report)`);
    return;
  }
  totals.passed += stats.expected + (stats.flaky ?? 0);
  totals.failed += stats.unexpected;
  totals.skipped += stats.skipped;
  if (stats.unexpected > 0 || !ok) {
    if (stats.unexpected === 0) totals.failed += 1;
    failures.push(title);
  }
}

const missing = checkPrerequisites();
if (missing) {
  console.error(missing);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
rmSync(RESULTS, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });

gate('format', 'npx', ['prettier', '--check', '.']);
gate('lint', 'npx', ['eslint', '.']);
gate('typecheck', 'npm', ['run', '--silent', 'typecheck']);
gate('build', 'npx', ['electron-vite', 'build']);
vitest('unit tests', null, ['node', 'shared', 'renderer', 'sim'], `${RESULTS}/unit.json`);
// `npm run package:check` without its own build (the build gate above just made out/).
vitest('packaging check', null, ['packaging'], `${RESULTS}/packaging.json`);
vitest('keychain tests', 'scripts/with-keyring.mjs', ['keychain'], `${RESULTS}/keychain.json`);
if (existsSync('out/renderer/index.html'))
  playwright('end-to-end tests', 'playwright.config.ts', `${RESULTS}/playwright.json`);
else {
  totals.failed += 1;
  failures.push('end-to-end tests (no build)');
}
// The same specs in Electron: skipped, with the reason printed, where the Electron binary is not installed;
// with ADOPTION_REQUIRE_ELECTRON=1 (CI) that is a failure, and so is any listed test that did not run.
// (The packaged project needs a package: the workflow runs it after electron-builder.)
const electronListed = listElectronProject('electron');
playwright('end-to-end tests in Electron', ELECTRON_CONFIG, ELECTRON_REPORT, ['--project', 'electron']);
if (electronRequired(process.env)) {
  const complete = checkElectronProject('electron', electronListed, readReport(ELECTRON_REPORT));
  if (complete) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push('every listed Electron test ran');
  }
}

if (failures.length > 0) console.log(`\nFailed: ${failures.join(', ')}`);
for (const test of failedTests) console.log(`  ✘ ${test}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
