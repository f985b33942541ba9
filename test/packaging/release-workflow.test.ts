/**
 * The release workflow cannot run here (hosted runners, network, signing identities); this
 * parses it and checks what it must do: build on Linux, macOS and Windows runners with the
 * package script for that OS, take secrets only from the repository's secrets (into the
 * environment of the step that signs), keep the token read-only, and upload the installers.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = resolve(import.meta.dirname, '../..');
const text = readFileSync(join(ROOT, '.github/workflows/release.yml'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  'runs-on': string;
  'timeout-minutes'?: number;
  needs?: string | string[];
  uses?: string;
  steps: Step[];
}
const workflow = parse(text) as {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
};

const EXPECTED = {
  linux: { runner: /^ubuntu-/, flag: '--linux', files: ['dist/*.AppImage', 'dist/*.deb'] },
  // With the update files the organisation's server serves (Windows and macOS update themselves).
  mac: {
    runner: /^macos-/,
    flag: '--mac',
    files: ['dist/*.dmg', 'dist/*.zip', 'dist/*.blockmap', 'dist/latest-mac.yml'],
  },
  windows: {
    runner: /^windows-/,
    flag: '--win',
    files: ['dist/*.exe', 'dist/*.msi', 'dist/*.blockmap', 'dist/latest.yml'],
  },
};

describe('.github/workflows/release.yml', () => {
  it('runs on a tag or by hand, with a read-only token', () => {
    expect(Object.keys(workflow.on).sort()).toEqual(['push', 'workflow_dispatch']);
    expect(workflow.on.push).toEqual({ tags: ['v*'] });
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('builds only from a commit whose CI is green: every build job needs the CI workflow, run on that commit', () => {
    expect(workflow.jobs.ci).toMatchObject({ uses: './.github/workflows/ci.yml' });
    for (const name of Object.keys(EXPECTED)) expect(workflow.jobs[name]!.needs, name).toBe('ci');
    const ci = parse(readFileSync(join(ROOT, '.github/workflows/ci.yml'), 'utf8')) as { on: Record<string, unknown> };
    expect(Object.keys(ci.on)).toContain('workflow_call');
  });

  it('has one job per OS, each on its own runner, installing with npm ci and packaging for that OS', () => {
    expect(Object.keys(workflow.jobs).sort()).toEqual([...Object.keys(EXPECTED), 'ci'].sort());
    for (const [name, expected] of Object.entries(EXPECTED)) {
      const job = workflow.jobs[name]!;
      expect(job['runs-on'], name).toMatch(expected.runner);
      expect(job['timeout-minutes'], name).toBeGreaterThan(0);
      const runs = job.steps.map((step) => step.run ?? '');
      expect(
        runs.some((run) => /^npm ci\b/.test(run)),
        name,
      ).toBe(true);
      const packaging = runs.filter((run) => run.startsWith('npm run package -- '));
      expect(packaging, name).toHaveLength(1);
      expect(packaging[0]).toContain(expected.flag);
      expect(packaging[0]).toContain('--publish never');
      expect(job.steps[0]?.uses, name).toMatch(/^actions\/checkout@/);
      expect(job.steps[0]?.with).toMatchObject({ 'persist-credentials': false });
    }
    expect(workflow.jobs.mac!.steps.find((s) => s.run?.includes('--mac'))?.run).toMatch(/--arm64 --x64/);
    expect(workflow.jobs.linux!.steps.map((s) => s.run)).toContain('npm run package:check');
  });

  it('uploads each OS’s installers as artefacts, failing when none were made', () => {
    for (const [name, expected] of Object.entries(EXPECTED)) {
      const upload = workflow.jobs[name]!.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
      expect(upload, name).toBeDefined();
      const paths = String(upload?.with?.path)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      expect(paths, name).toEqual(expected.files);
      expect(upload?.with?.['if-no-files-found']).toBe('error');
    }
  });

  it('takes signing and notarisation secrets only from repository secrets, into step environments', () => {
    const secretRefs = [...text.matchAll(/\$\{\{\s*secrets\.([A-Z0-9_]+)\s*\}\}/g)].map((m) => m[1]);
    expect(secretRefs.length).toBeGreaterThan(0);
    for (const job of Object.values(workflow.jobs)) {
      for (const step of job.steps ?? []) {
        // A secret never appears in a command line (where logs and process lists show it).
        expect(step.run ?? '').not.toMatch(/secrets\./);
        for (const [key, value] of Object.entries(step.env ?? {})) {
          expect(value, key).toMatch(/^\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/);
        }
      }
    }
    const macEnv = workflow.jobs.mac!.steps.find((s) => s.run?.includes('--mac'))?.env ?? {};
    expect(Object.keys(macEnv).sort()).toEqual(
      ['APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_ID', 'APPLE_TEAM_ID', 'CSC_KEY_PASSWORD', 'CSC_LINK'].sort(),
    );
    const winEnv = workflow.jobs.windows!.steps.find((s) => s.run?.includes('--win'))?.env ?? {};
    expect(Object.keys(winEnv).sort()).toEqual(['WIN_CSC_KEY_PASSWORD', 'WIN_CSC_LINK']);
    // Nothing that looks like key material, and no password, key or certificate given a literal value.
    expect(text).not.toMatch(/BEGIN [A-Z ]*PRIVATE KEY|MII[A-Za-z0-9+/]{40}/);
    const literal = text
      .split('\n')
      .filter((line) => /^\s*[\w-]*(PASSWORD|SECRET|TOKEN|KEY|CSC_LINK|APPLE_ID)[\w-]*\s*:/i.test(line))
      .filter((line) => !/:\s*\$\{\{ secrets\.[A-Z0-9_]+ \}\}\s*$/.test(line));
    expect(literal).toEqual([]);
  });
});
