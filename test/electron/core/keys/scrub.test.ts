import { describe, expect, it } from 'vitest';
import { bounded, HIDDEN_KEY, LIMITS, Scrubber, scrubResult } from '../../../../electron/core/keys/scrub';
import type { DiagnosticEntry } from '../../../../src/shared/app-api/diagnostics';

const KEY = 'sk_live_4f9c2a7e81d3b6058e1a9c7f2d4b6e80';

/**
 * Every 8-character piece of the key (and of its encoded forms). The scrubber hides keys whole
 * only; where a test's text held a key whole and nothing else of it, none of these may be left
 * (a cut made before hiding would leave one).
 */
const PIECE = 8;
function pieces(key: string): string[] {
  const forms = [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)];
  return forms.flatMap((form) => Array.from({ length: form.length - PIECE + 1 }, (_, i) => form.slice(i, i + PIECE)));
}

function expectNoPartOf(key: string, text: string): void {
  for (const piece of pieces(key)) expect(text, `"${piece}" left in ${text}`).not.toContain(piece);
}

const scrubberFor = (...keys: string[]): Scrubber => {
  const scrubber = new Scrubber();
  for (const key of keys) scrubber.remember(key);
  return scrubber;
};

describe('scrubber', () => {
  it('changes nothing while it knows no key, and text without a key', () => {
    expect(new Scrubber().text(`Bearer ${KEY}`)).toBe(`Bearer ${KEY}`);
    const scrubber = scrubberFor(KEY);
    expect(scrubber.text('The service had a problem (HTTP 500).')).toBe('The service had a problem (HTTP 500).');
    expect(scrubber.value({ a: [1, true, null, 'x'] })).toEqual({ a: [1, true, null, 'x'] });
  });

  it('hides the key whole, URI-encoded and JSON-escaped', () => {
    const key = 'k/ey+"with"\\odd=chars';
    const scrubber = scrubberFor(key);
    for (const form of [key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)]) {
      const out = scrubber.text(`before ${form} after`);
      expect(out).toBe(`before ${HIDDEN_KEY} after`);
    }
  });

  it('hides the key in base64 (standard and URL-safe, at any alignment inside a longer value): every character with a bit of it', () => {
    const key = 'k/ey+"with"\\odd=chars?>>';
    const scrubber = scrubberFor(key);
    const bytes = Buffer.byteLength(key);
    for (const prefix of ['', 'B', 'Be', 'Bearer ', 'user:']) {
      const standard = Buffer.from(`${prefix}${key}`).toString('base64');
      const urlSafe = Buffer.from(`${prefix}${key}`).toString('base64url');
      // the characters that carry a bit of the key, and no other
      const first = Math.floor((8 * prefix.length) / 6);
      const last = Math.ceil((8 * (prefix.length + bytes)) / 6);
      for (const encoded of [standard, urlSafe, standard.replace(/=+$/, '')]) {
        const out = scrubber.text(`token ${encoded} end`);
        expect(out, `${prefix}: ${encoded}`).toBe(
          `token ${encoded.slice(0, first)}${HIDDEN_KEY}${encoded.slice(last)} end`,
        );
      }
    }
  });

  it('hides the key percent-encoded in any case, and HTML-escaped', () => {
    const key = 'k/ey+"with"<odd>&chars';
    const scrubber = scrubberFor(key);
    const lower = encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    const everyByte = [...Buffer.from(key)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    const html = key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const htmlNumeric = key.replace(/["&<>']/g, (c) => `&#${c.charCodeAt(0)};`);
    for (const form of [lower, everyByte, everyByte.toUpperCase(), html, htmlNumeric]) {
      expect(scrubber.text(`before ${form} after`), form).toBe(`before ${HIDDEN_KEY} after`);
    }
  });

  it('hides a key made of digits that comes back as a JSON number', () => {
    const key = '4242424242424242';
    const scrubber = scrubberFor(key);
    expect(scrubber.value({ order: 7, key: 4242424242424242, nested: [4242424242424242] })).toEqual({
      order: 7,
      key: HIDDEN_KEY,
      nested: [HIDDEN_KEY],
    });
  });

  it('leaves numbers alone for a key too short to look for in them (status codes stay numbers)', () => {
    // Found by fuzzing the host API: a key "200" turned every Diagnostics status 200 into text.
    const scrubber = scrubberFor('200');
    expect(scrubber.value({ status: 200, count: 1200, id: 92003 })).toEqual({ status: 200, count: 1200, id: 92003 });
    const long = scrubberFor('20260424');
    expect(long.value({ id: 9120260424777, status: 200 })).toEqual({ id: HIDDEN_KEY, status: 200 });
  });

  it('leaves a key cut at any position as it is: a piece is answered as any other text (no oracle)', () => {
    const scrubber = scrubberFor(KEY);
    for (let cut = 1; cut < KEY.length; cut += 1) {
      for (const text of [`The service said: Bearer ${KEY.slice(0, cut)}`, `${KEY.slice(cut)} was the end`]) {
        expect(scrubber.text(text)).toBe(text);
      }
    }
    expect(scrubber.hiddenCount).toBe(0);
  });

  it('hides the key at every offset before a text is bounded, so no cut leaves a part of it', () => {
    const scrubber = scrubberFor(KEY);
    for (let offset = 0; offset <= 80; offset += 1) {
      const text = `${'x'.repeat(offset)}${KEY}${'y'.repeat(40)}`;
      expectNoPartOf(KEY, bounded(scrubber.text(text), 60));
    }
  });

  it('hides every known key and keys in object names, deep inside values (and leaves a piece of one)', () => {
    const other = 'second-key-0123456789abcdef';
    const scrubber = scrubberFor(KEY, other);
    const out = scrubber.value({
      [KEY]: [{ echoed: `Bearer ${KEY}`, nested: { again: other } }],
      list: [`x${other.slice(0, 12)}`, `y${other}z`],
    });
    expectNoPartOf(KEY, JSON.stringify(out));
    expect(out).toEqual({
      [HIDDEN_KEY]: [{ echoed: `Bearer ${HIDDEN_KEY}`, nested: { again: HIDDEN_KEY } }],
      list: [`x${other.slice(0, 12)}`, `y${HIDDEN_KEY}z`],
    });
  });

  it('keeps a "__proto__" name a plain property', () => {
    const scrubber = scrubberFor(KEY);
    const out = scrubber.value(JSON.parse(`{"__proto__": {"polluted": "${KEY}"}}`) as object);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('scrubs every string field of an error, then bounds it', () => {
    const scrubber = scrubberFor(KEY);
    const long = `${'m'.repeat(LIMITS.message - 10)}${KEY}`;
    const result = scrubResult(
      'listPets',
      { ok: false, error: { code: `c_${KEY}`, message: long, serviceCode: `${'s'.repeat(50)}${KEY}`, status: 400 } },
      scrubber,
    );
    expect(result.ok).toBe(false);
    const text = JSON.stringify(result);
    expectNoPartOf(KEY, text);
    if (!result.ok) {
      expect(result.error.code).toBe(`c_${HIDDEN_KEY}`);
      expect(result.error.message.length).toBeLessThanOrEqual(LIMITS.message);
      expect(result.error.serviceCode?.length).toBeLessThanOrEqual(LIMITS.code);
      expect(result.error.status).toBe(400);
    }
  });

  it('bounds the header values of diagnostics entries after scrubbing them', () => {
    const scrubber = scrubberFor(KEY);
    const entry: DiagnosticEntry = {
      at: 1,
      profileId: 'local',
      method: 'GET',
      path: '/pets?limit=20',
      status: 429,
      durationMs: 3,
      rateLimit: { limit: 'z'.repeat(500), remaining: `${'r'.repeat(60)}${KEY}`, reset: KEY, retryAfter: '5' },
      idempotencyKey: null,
      outcome: 'rate_limited',
    };
    const result = scrubResult('diagnostics', { ok: true, data: { entries: [entry] } }, scrubber);
    expectNoPartOf(KEY, JSON.stringify(result));
    const [out] = result.ok ? (result.data as { entries: DiagnosticEntry[] }).entries : [];
    expect(out?.rateLimit.limit?.length).toBe(LIMITS.header);
    expect(out?.rateLimit.reset).toBe(HIDDEN_KEY);
    expect(out?.rateLimit.retryAfter).toBe('5');
  });
});

// A proxy user name is no secret (often an employee number), yet the scrubber once knew every
// 8-character piece of "user:password" (for the Basic token): an animal whose id held 8 digits of the
// user name was withheld as if it held a key. Found by the router fuzz soak (proxy user name
// "9223372036854775808", then GET /pets/9223372036854775807 withheld). Now that only whole secrets are
// hidden, no piece of the user name, nor of the password, is.
describe('a proxy login: the password, and "user:password" whole', () => {
  const username = '00123456789';
  const password = 'pw-3f9a1c7e';

  it('hides the password, the login and its Basic token, but no piece of the user name or the password', () => {
    const scrubber = new Scrubber();
    scrubber.remember(password);
    scrubber.remember(`${username}:${password}`);
    const answer = { id: '7001234567890', name: 'Clerk 00123456789', categoryId: 1 };
    expect(scrubber.value(answer)).toEqual(answer);
    expect(scrubber.hiddenCount).toBe(0);

    const basic = Buffer.from(`${username}:${password}`).toString('base64');
    expect(scrubber.text(`proxy said ${password}`)).toBe(`proxy said ${HIDDEN_KEY}`);
    expect(scrubber.text(`proxy said ${username}:${password}`)).toBe(`proxy said ${HIDDEN_KEY}`);
    // the padding carries no bit of the login
    expect(scrubber.text(`proxy said Basic ${basic}`)).toBe(`proxy said Basic ${HIDDEN_KEY}=`);
    for (const piece of [`…${basic.slice(-12)}`, password.slice(1), password.slice(0, -1), `${username}:pw`]) {
      expect(scrubber.text(`echo ${piece}`), piece).toBe(`echo ${piece}`);
    }
  });
});
