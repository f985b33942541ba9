/** Soak variant of test/reliability/fuzz-router.test.ts: 100,000 seeded payloads through the router. */
import { afterAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src/shared/app-api/api';
import { describeRouterFuzz, runRouterFuzz } from '../reliability/support/fuzz-run';
import { watchProcess } from '../reliability/support/hostile-client';

const PAYLOADS = 100_000;
const watch = watchProcess();
afterAll(() => watch.stop());

describe('soak: fuzzing the router', () => {
  it(`${PAYLOADS} payloads: only typed answers, no throw, no key quoted, no pollution`, async () => {
    const report = await runRouterFuzz(PAYLOADS, 1007);
    console.log(describeRouterFuzz(PAYLOADS, report));
    expect(report.problems.slice(0, 20)).toEqual([]);
    expect(report.loggedErrors).toEqual([]);
    expect(report.diagnosticsText).not.toMatch(/FUZZKEY/);
    expect(watch.problems).toEqual([]);
    for (const channel of CHANNELS) expect(report.perChannel.get(channel) ?? 0, channel).toBeGreaterThan(200);
  });
});
