import { describe, expect, it } from 'vitest';
import { Animal, ListQuery, NewAnimal, Animals, ServiceError } from '../../../../src/shared/records/animal';
import { compareInt64, isInt64String } from '../../../../src/shared/records/int64';

describe('NewAnimal', () => {
  it('accepts name and categoryId, with or without a status', () => {
    expect(NewAnimal.parse({ name: ' Rex ', categoryId: '3' })).toEqual({ name: 'Rex', categoryId: '3' });
    expect(NewAnimal.parse({ name: 'Rex', categoryId: '3', status: 'sold' }).status).toBe('sold');
  });

  it.each([
    [{ categoryId: '3' }, 'name'],
    [{ name: '   ', categoryId: '3' }, 'name'],
    [{ name: 'Rex', categoryId: '2.5' }, 'categoryId'],
    [{ name: 'Rex', categoryId: '9223372036854775808' }, 'categoryId'],
    [{ name: 'Rex', categoryId: 3 }, 'categoryId'],
    [{ name: 'Rex', categoryId: '3', status: 'adopted' }, 'status'],
  ])('rejects %j naming %s', (input, field) => {
    const result = NewAnimal.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });
});

describe('Animal', () => {
  it('keeps unknown fields of a newer server', () => {
    const animal = Animal.parse({ id: '1', name: 'Rex', categoryId: '2', colour: 'brown' });
    expect(animal).toEqual({ id: '1', name: 'Rex', categoryId: '2', colour: 'brown' });
  });

  it('rejects a record without an id or with an unknown status', () => {
    expect(Animal.safeParse({ name: 'Rex', categoryId: '2' }).success).toBe(false);
    expect(Animals.safeParse([{ id: '1', name: 'Rex', categoryId: '2', status: 'lost' }]).success).toBe(false);
  });
});

describe('ListQuery', () => {
  it('defaults limit to 20 and bounds it to 1..100', () => {
    expect(ListQuery.parse({})).toEqual({ limit: 20 });
    expect(ListQuery.safeParse({ limit: 0 }).success).toBe(false);
    expect(ListQuery.safeParse({ limit: 101 }).success).toBe(false);
    expect(ListQuery.safeParse({ limit: 100, status: 'pending' }).success).toBe(true);
  });
});

describe('ServiceError', () => {
  it('keeps an unknown code as it is', () => {
    expect(ServiceError.parse({ code: 'shelter_closed', message: 'closed', status: 503 }).code).toBe('shelter_closed');
  });
});

describe('int64 strings', () => {
  it('bounds and orders exactly', () => {
    expect(isInt64String('9223372036854775807')).toBe(true);
    expect(isInt64String('9223372036854775808')).toBe(false);
    expect(isInt64String('007')).toBe(false);
    expect(compareInt64('9007199254740993', '9007199254740992')).toBe(1);
  });
});
