import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl, ProfileInput } from '../../../src/shared/profile';
import { ApiKey } from '../../../src/shared/api';

describe('normaliseBaseUrl', () => {
  it.each([
    ['https://api.example.org/v1', 'https://api.example.org/v1'],
    ['https://api.example.org/v1/', 'https://api.example.org/v1'],
    ['  https://API.example.org:8443/shelter/v1// ', 'https://api.example.org:8443/shelter/v1'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
    ['http://localhost:4010/v1', 'http://localhost:4010/v1'],
  ])('accepts %s as %s', (input, url) => {
    expect(normaliseBaseUrl(input)).toEqual({ ok: true, url });
  });

  it.each([
    ['api.example.org/v1', /absolute/],
    ['http://api.example.org/v1', /https/],
    ['ftp://api.example.org/v1', /https/],
    ['https://api.example.org/v2', /\/v1/],
    ['https://user:pw@api.example.org/v1', /user name/],
    ['https://api.example.org/v1?x=1', /query/],
  ])('rejects %s', (input, message) => {
    const result = normaliseBaseUrl(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('normalises inside ProfileInput', () => {
    const parsed = ProfileInput.parse({ name: 'Shelter B', baseUrl: 'https://b.example.org/v1/', color: 'blue' });
    expect(parsed.baseUrl).toBe('https://b.example.org/v1');
  });
});

describe('ApiKey', () => {
  it('accepts a plain token and rejects empty, spaced, control and oversized keys', () => {
    expect(ApiKey.safeParse('sk_live_abc123').success).toBe(true);
    for (const bad of ['', 'has space', 'tab\there', 'nl\n', 'x'.repeat(4097)]) {
      const result = ApiKey.safeParse(bad);
      expect(result.success).toBe(false);
      expect(JSON.stringify(result.error?.issues.map((i) => i.message))).not.toContain(bad || '""""');
    }
  });
});
