/**
 * The Electron projects cannot pass without testing (issue 30): with ADOPTION_REQUIRE_ELECTRON=1 every
 * test Playwright lists for a project must have run (scripts/lib/electron-suite.mjs). Read from reports
 * shaped as Playwright's JSON reporter writes them, for `--list` (no results, status "skipped") and a run.
 */
import { describe, expect, it, vi } from 'vitest';
// @ts-expect-error -- a plain ESM module of the test runner, without types
import * as suite from '../../scripts/lib/electron-suite.mjs';

type Report = { suites: unknown[] };
const compare = suite.compareElectronRun as (
  project: string,
  list: Report | null,
  run: Report | null,
) => { listed: number; ran: number; problems: string[] };
const check = suite.checkElectronProject as (
  project: string,
  list: Report | null,
  run: Report | null,
  env: Record<string, string>,
) => boolean;
const required = suite.electronRequired as (env: Record<string, string>) => boolean;

/** One spec file with tests `[title, project, status, skip reason?]` (status null: a `--list` report). */
function report(file: string, tests: [string, string, string | null, string?][]): Report {
  return {
    suites: [
      {
        title: file,
        file,
        specs: tests.map(([title, project, status, reason], line) => ({
          title,
          file,
          line: line + 1,
          tests: [
            {
              projectName: project,
              annotations: reason ? [{ type: 'skip', description: reason }] : [],
              status: status ?? 'skipped',
              results: status ? [{ status: status === 'skipped' ? 'skipped' : 'passed' }] : [],
            },
          ],
        })),
        suites: [],
      },
    ],
  };
}

const listed = report('add.spec.ts', [
  ['adds', 'electron', null],
  ['validates', 'electron', null],
  ['starts', 'packaged', null],
]);

describe('every listed Electron test ran', () => {
  it('holds when each listed test of the project ran, passed or failed', () => {
    const run = report('add.spec.ts', [
      ['adds', 'electron', 'expected'],
      ['validates', 'electron', 'unexpected'],
    ]);
    expect(compare('electron', listed, run)).toEqual({ listed: 2, ran: 2, problems: [] });
  });

  it('names a test that was skipped, with its reason, and one the run never reached', () => {
    const run = report('add.spec.ts', [
      ['adds', 'electron', 'skipped', 'Electron binary not installed: path.txt is missing'],
    ]);
    expect(compare('electron', listed, run)).toEqual({
      listed: 2,
      ran: 0,
      problems: [
        'add.spec.ts:1 › adds did not run (skipped: Electron binary not installed: path.txt is missing)',
        'add.spec.ts:2 › validates did not run (not in the run)',
      ],
    });
  });

  it('an empty selection, or no report at all, is a problem too', () => {
    expect(compare('electron', { suites: [] }, { suites: [] }).problems).toEqual([
      'no test is listed for the electron project',
    ]);
    expect(compare('packaged', listed, null).problems).toEqual([
      'no report of the packaged run',
      'add.spec.ts:3 › starts did not run (not in the run)',
    ]);
  });

  it('fails the check only when Electron is required (CI), and always prints the counts', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const skipped = report('add.spec.ts', [['adds', 'electron', 'skipped', 'no binary']]);
    expect(check('electron', listed, skipped, {})).toBe(true);
    expect(check('electron', listed, skipped, { ADOPTION_REQUIRE_ELECTRON: '1' })).toBe(false);
    expect(log.mock.calls[0]?.[0]).toBe('[electron e2e] electron: 2 listed, 0 ran');
    expect(required({ ADOPTION_REQUIRE_ELECTRON: 'true' })).toBe(true);
    expect(required({ ADOPTION_REQUIRE_ELECTRON: '0' })).toBe(false);
    expect(() => required({ ADOPTION_REQUIRE_ELECTRON: 'yes' })).toThrow('must be 1 or 0');
  });
});
