// The Electron e2e projects run only where the Electron binary exists (GitHub's runners). A run that
// skips, or a config that selects fewer tests, would still be green: on CI (ADOPTION_REQUIRE_ELECTRON=1)
// every test Playwright lists for a project must also have run, pass or fail, and the list must not be
// empty (issue 30). Tests that cannot run on a system are left out by the config, with the reason
// printed (test/e2e/support/platform-specs.ts), so that listed and ran can be compared exactly.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The environment variable that makes a missing Electron, or a test not run, a failure. */
export const REQUIRE_ELECTRON_ENV = 'ADOPTION_REQUIRE_ELECTRON';

/** Whether this run must run the Electron projects: `1`/`true` yes, unset/`0`/`false` no, anything else is a mistake. */
export function electronRequired(env) {
  const value = env[REQUIRE_ELECTRON_ENV];
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${REQUIRE_ELECTRON_ENV} must be 1 or 0, not "${value}"`);
}

/** Every test of a Playwright JSON report (`--reporter=json`, a run or `--list`), with its place and status. */
export function reportTests(report) {
  const tests = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        tests.push({
          project: test.projectName,
          id: `${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}`,
          // A listed test has no results; in a run, `skipped` means it never ran.
          status: test.status ?? null,
          skipReason: (test.annotations ?? []).find((a) => a.type === 'skip')?.description ?? null,
        });
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, []);
  return tests;
}

/**
 * Compares what Playwright listed for `project` with what ran in the run's report. Returns the
 * counts and the problems (empty when every listed test ran and at least one was listed).
 */
export function compareElectronRun(project, listReport, runReport) {
  const listed = reportTests(listReport).filter((t) => t.project === project);
  const run = reportTests(runReport).filter((t) => t.project === project);
  const ranIds = new Set(run.filter((t) => t.status !== null && t.status !== 'skipped').map((t) => t.id));
  const problems = [];
  if (listed.length === 0) problems.push(`no test is listed for the ${project} project`);
  if (!runReport) problems.push(`no report of the ${project} run`);
  for (const test of listed)
    if (!ranIds.has(test.id)) {
      const inRun = run.find((t) => t.id === test.id);
      const why = inRun?.skipReason ? `skipped: ${inRun.skipReason}` : inRun ? 'skipped' : 'not in the run';
      problems.push(`${test.id} did not run (${why})`);
    }
  return { listed: listed.length, ran: listed.filter((t) => ranIds.has(t.id)).length, problems };
}

export const ELECTRON_CONFIG = 'playwright.electron.config.ts';
export const ELECTRON_REPORT = 'test-results/playwright-electron.json';

/** Playwright's JSON for `--list` of one project (stdout), or null with the reason printed. */
export function listElectronProject(project, extra = []) {
  const listed = spawnSync(
    'npx',
    ['playwright', 'test', '-c', ELECTRON_CONFIG, '--project', project, '--list', '--reporter=json', ...extra],
    {
      encoding: 'utf8',
      shell: process.platform === 'win32',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, FORCE_COLOR: '0' },
    },
  );
  try {
    return JSON.parse(listed.stdout);
  } catch {
    console.error(`could not list the ${project} project's tests:\n${listed.stderr}`);
    return null;
  }
}

/** Prints the comparison; returns whether it holds (always true when Electron is not required). */
export function checkElectronProject(project, listReport, runReport, env = process.env) {
  const { listed, ran, problems } = compareElectronRun(project, listReport, runReport);
  console.log(`[electron e2e] ${project}: ${listed} listed, ${ran} ran`);
  if (!electronRequired(env)) return true;
  for (const problem of problems) console.log(`  ✘ ${problem}`);
  return problems.length === 0;
}

/** A JSON report written by a run, or null. */
export function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
