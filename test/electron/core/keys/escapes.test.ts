/**
 * The scrubber reads escapes as their own decoders do (electron/core/keys/escapes.ts): checked
 * against a real HTML parser (happy-dom), Node's URI decoders and JSON.parse, on every name it
 * knows and on thousands of random texts.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeAll, escapeAt, HTML_NAMES } from '../../../../electron/core/keys/escapes';
import { closeHtml, htmlDecode, percentDecode } from './secret-forms';

afterAll(closeHtml);

const decoded = (text: string, family: Parameters<typeof decodeAll>[1]): string =>
  decodeAll(text, family)?.text ?? text;

describe('HTML character references, as a browser reads them', () => {
  it('every name the scrubber knows stands for what HTML says (with ";")', () => {
    expect(HTML_NAMES.size).toBeGreaterThan(250);
    for (const [name, character] of HTML_NAMES) {
      expect(htmlDecode(`&${name};`), name).toBe(character);
      expect(escapeAt(`&${name};`, 0, 'html'), name).toEqual({ length: name.length + 2, text: character });
    }
  });

  it('numeric references of any code point, decimal or hex, any case, leading zeros, with or without ";"', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 0x11ffff }), fc.integer({ min: 0, max: 0x200 })),
        fc.boolean(),
        fc.boolean(),
        fc.nat(4),
        fc.boolean(),
        (code, hex, upper, zeros, semicolon) => {
          const digits = hex ? code.toString(16) : String(code);
          const reference = `&#${hex ? (upper ? 'X' : 'x') : ''}${'0'.repeat(zeros)}${upper ? digits.toUpperCase() : digits}${semicolon ? ';' : ''}`;
          expect(decoded(`${reference} `, 'html'), reference).toBe(htmlDecode(`${reference} `));
        },
      ),
      { numRuns: 3000, seed: 3110 },
    );
  }, 60_000);

  it('any text of references, names (also without ";" where HTML allows it) and other characters', () => {
    const names = [...HTML_NAMES.keys()];
    const token = fc.oneof(
      fc.constantFrom(...'ab19 ;#x&<>"é'),
      fc.constantFrom(...names).map((name) => `&${name};`),
      fc.constantFrom('amp', 'lt', 'gt', 'quot', 'AMP', 'copy', 'eacute', 'not', 'frac12').map((name) => `&${name} `),
      fc.integer({ min: 1, max: 0x2fff }).map((code) => `&#${code};`),
      fc.integer({ min: 1, max: 0x2fff }).map((code) => `&#x${code.toString(16)};`),
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 20 }), (tokens) => {
        const text = tokens.join('');
        expect(decoded(text, 'html'), text).toBe(htmlDecode(text.replace(/</g, '&lt;')));
      }),
      { numRuns: 2000, seed: 3111 },
    );
  }, 60_000);
});

describe('percent-escapes and backslash escapes, as their decoders read them', () => {
  it('percent: UTF-8 in either case as decodeURIComponent reads it, other bytes as unescape does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), fc.gen(), (text, g) => {
        const written = [...text]
          .map((c) =>
            g(fc.boolean)
              ? c.replace('%', '%25')
              : [...Buffer.from(c)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
          )
          .join('');
        const upper = written.replace(/%[0-9a-f]{2}/g, (escape) => (g(fc.boolean) ? escape.toUpperCase() : escape));
        expect(decoded(upper, 'percent')).toBe(text);
        expect(decoded(upper, 'percent')).toBe(percentDecode(upper));
      }),
      { numRuns: 2000, seed: 3112 },
    );
    expect(decoded('%E9t%E9 %u20AC %C3%A9 %zz 100%', 'percent')).toBe('été € é %zz 100%');
  }, 60_000);

  it("backslash: what JSON.parse makes of any JSON string, and JavaScript's \\u{…} and \\x", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 16 }), (text) => {
        const json = JSON.stringify(text).slice(1, -1);
        const everyUnit = [...text]
          .flatMap((c) => Array.from({ length: c.length }, (_, i) => c.charCodeAt(i)))
          .map((unit) => `\\u${unit.toString(16).padStart(4, '0')}`)
          .join('');
        expect(decoded(json, 'backslash')).toBe(text);
        expect(decoded(everyUnit, 'backslash')).toBe(text);
      }),
      { numRuns: 2000, seed: 3113 },
    );
    expect(decoded('\\u{1F600} \\x41 \\/ \\+ \\q', 'backslash')).toBe('😀 A / + \\q');
  }, 60_000);

  it('maps every decoded character back to the characters it came from', () => {
    const view = decodeAll('a%41&amp;b', 'percent')!;
    expect(view.text).toBe('aA&amp;b');
    expect([...view.from]).toEqual([0, 1, 4, 5, 6, 7, 8, 9]);
    expect([...view.to]).toEqual([1, 4, 5, 6, 7, 8, 9, 10]);
  });
});
