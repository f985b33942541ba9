// The failing tests of a run by name, with the first line of each error: `npm test` prints them last
// so that a CI log cut to its final lines still says what failed (read from the runners' JSON reports).
import { stripVTControlCharacters } from 'node:util';

/** The first non-blank line of an error text, without colour codes, at most 300 characters. */
export function firstLine(text) {
  const line = stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .find((l) => l.trim() !== '');
  return (line ?? '').trim().slice(0, 300);
}

/** Failing tests in a vitest JSON report (`--reporter=json`). */
export function vitestFailures(title, report) {
  const out = [];
  for (const file of report?.testResults ?? [])
    for (const test of file.assertionResults ?? [])
      if (test.status === 'failed')
        out.push(`${title}: ${file.name} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  return out;
}

/** Unexpected results in a Playwright JSON report (the `json` reporter), with file:line and the describe path. */
export function playwrightFailures(title, report) {
  const out = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected') {
          const name = [...path, spec.title].join(' › ');
          const error = firstLine(test.results?.at(-1)?.error?.message);
          out.push(`${title}: [${test.projectName}] ${spec.file}:${spec.line} › ${name}: ${error}`);
        }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  // The top-level suites are the spec files, already named by spec.file.
  for (const suite of report?.suites ?? []) walk(suite, []);
  return out;
}
