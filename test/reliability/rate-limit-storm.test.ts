/**
 * Issue 7.4, rate-limit storm: 500 reads plus some creations queued at once on one Free-plan
 * key (60 per "minute" of 1 s here), through one governor and service client with the real
 * clock. The service's request log proves it: no ban, no request while told to wait, every
 * request served. It takes ~9 s by the nature of the window (60 per second), not by sleeping.
 */
import { describe, expect, it } from 'vitest';
import { describeStorm, runStorm } from './support/storm';

describe('rate-limit storm', () => {
  it('500 reads and 20 creations on a Free key: zero bans, zero requests while told to wait, all served', async () => {
    const report = await runStorm({ reads: 500, writes: 20, minuteMs: 1000 });
    console.log(describeStorm(report));
    expect(report.results).toHaveLength(520);
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
    expect(report.banned).toBe(0);
    expect(report.toldToWait).toBe(0);
    expect(report.lines.filter((l) => l.toldToWait)).toEqual([]);
    expect(report.served).toBe(520);
    expect(report.created).toBe(20);
    expect(report.animalCount).toBe(20);
  }, 60_000);
});
