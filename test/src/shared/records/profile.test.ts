import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl, ProfileInput } from '../../../../src/shared/records/profile';
import { ApiKey, api } from '../../../../src/shared/app-api/api';

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

// A lone surrogate (half of a UTF-16 pair) cannot be written as UTF-8: the keychain stores it
// mangled or not at all, and an HTTP header cannot carry it. Found by the router fuzz soak
// (payload #29945: the keychain's failure came back as "The system keychain could not be used").
describe('text that is not well-formed Unicode', () => {
  const lone = 'abc\ud800def';
  it('is refused as an API key, with a message that does not quote it', () => {
    const result = ApiKey.safeParse(lone);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['the key contains a character that is not valid text']);
  });

  it('is refused as a proxy user name or password, with a clear message', () => {
    const input = api.setProxyLogin.input;
    const password = input.safeParse({ proxy: 'proxy.corp:3128', username: 'shelter', password: lone });
    expect(password.error?.issues.map((i) => i.message)).toEqual([
      'the password contains a character that is not valid text',
    ]);
    const username = input.safeParse({ proxy: 'proxy.corp:3128', username: lone, password: 'pw' });
    expect(username.error?.issues.map((i) => i.message)).toEqual([
      'the user name contains a character that is not valid text',
    ]);
    expect(input.safeParse({ proxy: 'proxy.corp:3128', username: 'shelter', password: 'pâss😀' }).success).toBe(true);
  });
});
