import { describe, expect, it } from 'vitest';
import { emptyTotals, summaryLine } from './totals';

describe('the closing line of a run', () => {
  it('is the five figures when nothing waited and no key showed', () => {
    expect(summaryLine({ ...emptyTotals(), days: 10_000, animals: 123_456 })).toBe(
      '10000 days, 123456 animals, 0 lost, 0 sent twice, 0 untrue screens',
    );
  });

  it('names a day that failed by waiting, or by a key where it must not be, instead of reading clean', () => {
    const totals = { ...emptyTotals(), days: 6184, animals: 900, waits: 1, keys: 2 };
    expect(summaryLine(totals)).toBe(
      '6184 days, 900 animals, 0 lost, 0 sent twice, 0 untrue screens, 1 still waiting, 2 keys where they must not be',
    );
  });
});
