import { describe, expect, it } from 'vitest';
import { collapseDuplicateIds, duplicatedIds } from '../../../../src/shared/records/duplicate-ids';

const rec = (id: string, name: string) => ({ id, name });
const idOf = (record: { id: string }) => record.id;

describe('duplicate ids', () => {
  it('keeps one record per id: the last record wins, in the place the id first appeared', () => {
    const records = [rec('1', 'a'), rec('2', 'b'), rec('1', 'a2'), rec('3', 'c'), rec('2', 'b2'), rec('1', 'a3')];
    expect(collapseDuplicateIds(records, idOf)).toEqual([rec('1', 'a3'), rec('2', 'b2'), rec('3', 'c')]);
    expect(duplicatedIds(records, idOf)).toEqual(['1', '2']);
  });

  it('returns the same array when no id repeats (nothing is copied), and handles an empty list', () => {
    const records = [rec('9223372036854775807', 'a'), rec('9223372036854775806', 'b')];
    expect(collapseDuplicateIds(records, idOf)).toBe(records);
    expect(duplicatedIds(records, idOf)).toEqual([]);
    expect(collapseDuplicateIds([], idOf)).toEqual([]);
  });

  it('compares ids exactly as strings (ids above 2^53 that a number would merge stay apart)', () => {
    const records = [rec('9007199254740993', 'a'), rec('9007199254740992', 'b')];
    expect(collapseDuplicateIds(records, idOf)).toHaveLength(2);
  });
});
