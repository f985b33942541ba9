/**
 * Soak variant of test/reliability/rate-limit-storm.test.ts: 2,000 reads and 100 creations on
 * one Free key with 1 s "minutes" and 30 s "days", so the daily quota (1,000) runs out twice
 * on the way. Still zero bans, zero requests while told to wait, every request served.
 */
import { describe, expect, it } from 'vitest';
import { describeStorm, runStorm } from '../reliability/support/storm';

describe('soak: rate-limit storm', () => {
  it('2,100 requests across daily-quota exhaustion: zero bans, zero requests while told to wait, all served', async () => {
    const report = await runStorm({ reads: 2000, writes: 100, minuteMs: 1000, dayMs: 30_000 });
    console.log(describeStorm(report));
    expect(report.results.filter((r) => !r.ok)).toEqual([]);
    expect(report.banned).toBe(0);
    expect(report.toldToWait).toBe(0);
    expect(report.served).toBe(2100);
    expect(report.created).toBe(100);
  });
});
