/**
 * `npm test` names each failing test last (scripts/lib/failed-tests.mjs), so a CI log cut to its final
 * lines still says what failed. Read from reports shaped as vitest's and Playwright's JSON reporters
 * write them.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM module of the test runner, without types
import * as failed from '../../scripts/lib/failed-tests.mjs';

type Lister = (title: string, report: unknown) => string[];
const vitestFailures = failed.vitestFailures as Lister;
const playwrightFailures = failed.playwrightFailures as Lister;

describe('the failing tests of a run', () => {
  it('lists vitest failures with the first line of the error, colour codes removed', () => {
    const report = {
      testResults: [
        {
          name: '/repo/test/a.test.ts',
          assertionResults: [
            { status: 'passed', fullName: 'fine', failureMessages: [] },
            {
              status: 'failed',
              fullName: 'queue › keeps order',
              failureMessages: ['\n\u001b[31mAssertionError: expected 2 to be 3\u001b[39m\n    at x'],
            },
          ],
        },
      ],
    };
    expect(vitestFailures('unit tests', report)).toEqual([
      'unit tests: /repo/test/a.test.ts › queue › keeps order: AssertionError: expected 2 to be 3',
    ]);
  });

  it('lists unexpected Playwright results with project, file:line, describe path and the last retry’s error', () => {
    const report = {
      suites: [
        {
          title: 'list.spec.ts',
          specs: [
            {
              title: 'passes',
              file: 'list.spec.ts',
              line: 3,
              tests: [{ status: 'expected', projectName: 'chromium', results: [] }],
            },
          ],
          suites: [
            {
              title: 'offline',
              specs: [
                {
                  title: 'queues',
                  file: 'list.spec.ts',
                  line: 12,
                  tests: [
                    {
                      status: 'unexpected',
                      projectName: 'chromium',
                      results: [
                        { error: { message: 'first try' } },
                        { error: { message: 'Error: toBeVisible failed\n\nLocator: x' } },
                      ],
                    },
                    { status: 'flaky', projectName: 'electron', results: [] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    expect(playwrightFailures('end-to-end tests', report)).toEqual([
      'end-to-end tests: [chromium] list.spec.ts:12 › offline › queues: Error: toBeVisible failed',
    ]);
  });

  it('lists nothing for a missing report (the run counts that failure itself)', () => {
    expect(vitestFailures('unit tests', null)).toEqual([]);
    expect(playwrightFailures('end-to-end tests', undefined)).toEqual([]);
  });
});
