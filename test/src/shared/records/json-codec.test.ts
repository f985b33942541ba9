import { describe, expect, it } from 'vitest';
import { decodeJson, decodeJsonLossless, encodeJson } from '../../../../src/shared/records/json-codec';
import { isLosslessNumber } from 'lossless-json';

describe('json codec', () => {
  it('keeps an id above 2^53 exact through parse and serialise', () => {
    const body = '{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"available"}';
    const value = decodeJson(body) as Record<string, unknown>;
    expect(value.id).toBe('9007199254740993');
    expect(value.categoryId).toBe('9223372036854775807');
    expect(encodeJson(value)).toBe(body);
  });

  it('turns small int64 ids into decimal strings too, and back into integers', () => {
    const value = decodeJson('[{"id":7,"name":"Tom","categoryId":2}]') as Array<Record<string, unknown>>;
    expect(value[0]).toEqual({ id: '7', name: 'Tom', categoryId: '2' });
    expect(encodeJson(value)).toBe('[{"id":7,"name":"Tom","categoryId":2}]');
  });

  it('keeps other numbers as numbers and unsafe integers as exact strings', () => {
    const value = decodeJson('{"status":401,"ratio":0.5,"big":12345678901234567890}') as Record<string, unknown>;
    expect(value).toEqual({ status: 401, ratio: 0.5, big: '12345678901234567890' });
  });

  it('leaves a string id a string on the wire (it was not an integer)', () => {
    expect(encodeJson({ id: 'abc' })).toBe('{"id":"abc"}');
    expect(decodeJson('{"id":"12"}')).toEqual({ id: '12' });
  });

  it('throws SyntaxError on malformed JSON', () => {
    expect(() => decodeJson('{"id":')).toThrow(SyntaxError);
    expect(() => decodeJson('<html>')).toThrow(SyntaxError);
  });

  it('lets the service tell a JSON integer from a numeric string', () => {
    const value = decodeJsonLossless('{"a":12,"b":"12"}') as Record<string, unknown>;
    expect(isLosslessNumber(value.a)).toBe(true);
    expect(value.b).toBe('12');
  });
});
