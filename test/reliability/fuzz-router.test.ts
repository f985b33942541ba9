/**
 * Issue 7.5, fuzzing the boundary: 10,000 seeded random and malformed payloads to every
 * channel of the API (and unknown channel names), through the real app core's router. Only
 * typed errors or valid results come back; no handler throws, nothing rejects unhandled, no
 * answer quotes an API key sent, and Object.prototype is never polluted.
 * (test/soak/fuzz.soak.test.ts: 100,000.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src/shared/app-api/api';
import { describeRouterFuzz, runRouterFuzz } from './support/fuzz-run';
import { watchProcess } from './support/hostile-client';

const PAYLOADS = 10_000;
const watch = watchProcess();
afterAll(() => watch.stop());

describe('fuzzing the router', () => {
  it(`${PAYLOADS} payloads: only typed answers, no throw, no key quoted, no pollution`, async () => {
    const report = await runRouterFuzz(PAYLOADS, 7);
    console.log(describeRouterFuzz(PAYLOADS, report));
    expect(report.problems.slice(0, 20)).toEqual([]);
    expect(report.loggedErrors).toEqual([]);
    expect(report.diagnosticsText).not.toMatch(/FUZZKEY/);
    expect(watch.problems).toEqual([]);
    for (const channel of CHANNELS) expect(report.perChannel.get(channel) ?? 0, channel).toBeGreaterThan(20);
    expect(report.codes.get('ok') ?? 0).toBeGreaterThan(PAYLOADS / 20);
    expect(report.codes.get('invalid_request') ?? 0).toBeGreaterThan(PAYLOADS / 2);
  }, 120_000);
});
