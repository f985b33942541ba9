/**
 * The scrubber's promise, as properties over thousands of random secrets and texts (issue 31.2,
 * security review 2026-11, findings 2 and 8):
 * - a secret written whole, in any form a service may echo it in (as it is; percent-encoded, as
 *   HTML references or with JSON/JavaScript escapes, each character escaped or not, in either
 *   case, with leading zeros, named or numeric; one such encoding inside another; base64 at any
 *   alignment; a number), inside any text, never survives: exactly the characters that carry it
 *   are hidden, the text around it is kept;
 * - a text that holds no whole form of a secret comes back unchanged, however many pieces of it
 *   it holds: a piece is answered exactly as any other text (no oracle);
 * - a secret shorter than 8 characters is hidden only where it stands alone as a word.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HIDDEN_KEY, Scrubber } from '../../../../electron/core/keys/scrub';
import {
  closeHtml,
  encode,
  formsOf,
  holdsWhole,
  htmlDecode,
  percentDecode,
  picker,
  TEXT_ENCODINGS,
  type TextEncoding,
} from './secret-forms';

afterAll(closeHtml);

const RUNS = 2000;
/** Thousands of runs take seconds on a busy machine. */
const TIMEOUT = 60_000;
/** What keys and passwords are made of: printable ASCII (but "[", which starts the hidden marker) and some more. */
const SECRET_CHARS = [
  ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i)).filter((c) => c !== '['),
  'é',
  'ñ',
  'ß',
  '€',
  '中',
  '😀',
];
const secret = fc.string({ unit: fc.constantFrom(...SECRET_CHARS), minLength: 8, maxLength: 32 });
/** Text around a form: the characters that start or continue escapes, base64, words and numbers. */
const CONTEXT_CHARS = [...'%&#;\\xXuU{}0123456789abcdefABCDEF=+/_-.: "\'<>()!?,ghijkmnopqrstvwyzGHJKMNPQ'];
const context = fc.string({ unit: fc.constantFrom(...CONTEXT_CHARS), maxLength: 12 });
const encoding = fc.constantFrom(...(Object.keys(TEXT_ENCODINGS) as TextEncoding[]));

const scrubberFor = (...secrets: string[]): Scrubber => {
  const scrubber = new Scrubber();
  for (const one of secrets) scrubber.remember(one);
  return scrubber;
};

/** `out` is `text` with [start, end) hidden as one run (and maybe some of the text next to it, never less). */
function expectHiddenExactly(out: string, text: string, start: number, end: number): void {
  const at = out.indexOf(HIDDEN_KEY);
  expect(at, `nothing hidden in ${JSON.stringify(text)}`).toBeGreaterThanOrEqual(0);
  expect(out.indexOf(HIDDEN_KEY, at + 1), `hidden in two runs: ${JSON.stringify(out)}`).toBe(-1);
  const before = out.slice(0, at);
  const after = out.slice(at + HIDDEN_KEY.length);
  expect(text.slice(0, start).startsWith(before), `left of the form: ${JSON.stringify(out)}`).toBe(true);
  expect(text.slice(end).endsWith(after), `right of the form: ${JSON.stringify(out)}`).toBe(true);
}

/** Neither side of the form holds the secret on its own (then it would rightly be hidden twice). */
const alone = (secretText: string, ...contexts: string[]): boolean =>
  contexts.every((text) => !holdsWhole(text, secretText, { html: true }));

describe('a secret written whole, in any form, inside any text, never survives', () => {
  it(
    'percent-encoded, as HTML references or with backslash escapes: each character escaped or not',
    () => {
      fc.assert(
        fc.property(secret, encoding, context, context, fc.gen(), (key, how, before, after, g) => {
          fc.pre(alone(key, before, after));
          const form = encode(key, how, picker(g));
          const text = before + form + after;
          expectHiddenExactly(scrubberFor(key).text(text), text, before.length, before.length + form.length);
        }),
        { numRuns: RUNS, seed: 3102 },
      );
    },
    TIMEOUT,
  );

  it(
    'one encoding inside another (a percent-encoded HTML reference, …)',
    () => {
      fc.assert(
        fc.property(secret, encoding, encoding, context, context, fc.gen(), (key, inner, outer, before, after, g) => {
          fc.pre(alone(key, before, after));
          const form = encode(encode(key, inner, picker(g)), outer, picker(g));
          const text = `${before} ${form} ${after}`;
          expectHiddenExactly(scrubberFor(key).text(text), text, before.length + 1, before.length + 1 + form.length);
        }),
        { numRuns: RUNS, seed: 3103 },
      );
    },
    TIMEOUT,
  );

  it(
    'in base64, standard or URL-safe, padded or not, behind and before other bytes: every character with a bit of it',
    () => {
      const bytes = fc.string({ unit: fc.constantFrom(...'abcXYZ09:+/ '), maxLength: 5 });
      fc.assert(
        fc.property(
          secret,
          bytes,
          bytes,
          fc.boolean(),
          fc.boolean(),
          context,
          context,
          (key, head, tail, urlSafe, padded, before, after) => {
            fc.pre(alone(key, before, after));
            let value = Buffer.from(head + key + tail).toString(urlSafe ? 'base64url' : 'base64');
            if (!padded) value = value.replace(/=+$/, '');
            const text = before + value + after;
            const start = before.length + Math.floor((8 * Buffer.byteLength(head)) / 6);
            const end = before.length + Math.ceil((8 * Buffer.byteLength(head + key)) / 6);
            expectHiddenExactly(scrubberFor(key).text(text), text, start, end);
          },
        ),
        { numRuns: RUNS, seed: 3104 },
      );
    },
    TIMEOUT,
  );

  it(
    'in a number made of its digits (a JSON number or a bigint), which then goes whole',
    () => {
      const digits = (min: number, max: number) =>
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
      fc.assert(
        fc.property(digits(8, 12), digits(0, 3), digits(0, 20), (key, head, tail) => {
          const scrubber = scrubberFor(key);
          const small = `1${head}${key}`;
          expect(scrubber.value({ n: Number(small) })).toEqual({ n: HIDDEN_KEY });
          expect(scrubber.value({ n: BigInt(`${small}${tail}`) })).toEqual({ n: HIDDEN_KEY });
          // a number with only a piece of it is a number
          const piece = BigInt(`1${key.slice(1)}`);
          fc.pre(!`${piece}`.includes(key));
          expect(scrubber.value({ n: piece })).toEqual({ n: piece });
        }),
        { numRuns: RUNS, seed: 3105 },
      );
    },
    TIMEOUT,
  );
});

describe('a text with no whole form of a secret comes back unchanged (a piece is answered as any text)', () => {
  /** Characters that take part in no form of a secret made of SECRET_CHARS: they only separate. */
  const NEUTRAL = [' ', '\n', '·', '→', '¶', '猫', '«', '»'];
  const piece = fc.record({
    form: fc.constantFrom(...Object.keys(formsOf('x'))),
    start: fc.nat(),
    length: fc.nat(),
    glue: fc.string({ unit: fc.constantFrom(...NEUTRAL), minLength: 1, maxLength: 3 }),
  });

  it(
    'any windows of any forms, glued by other text',
    () => {
      let pieces = 0;
      let skipped = 0;
      fc.assert(
        fc.property(secret, fc.array(piece, { minLength: 1, maxLength: 6 }), (key, windows) => {
          const scrubber = scrubberFor(key);
          const parts = windows.flatMap(({ form: name, start, length, glue }) => {
            const form = formsOf(key)[name]!;
            const size = 1 + (length % (form.length - 1));
            const at = start % (form.length - size + 1);
            const window = form.slice(at, at + size);
            // a window can be whole after all: "9%21%21…" cut from "%39%21%21…"
            if (holdsWhole(window, key, { html: true })) {
              skipped += 1;
              return [];
            }
            pieces += 1;
            return [window, glue];
          });
          const text = parts.join('');
          expect(scrubber.text(text)).toBe(text);
          expect(scrubber.value({ [text]: [text] })).toEqual({ [text]: [text] });
          expect(scrubber.hiddenCount).toBe(0);
        }),
        { numRuns: RUNS, seed: 3106 },
      );
      expect(skipped).toBeLessThan(pieces / 50);
    },
    TIMEOUT,
  );

  it(
    'a secret and its login ("user:password") remembered together: pieces of either, and the user name, stay',
    () => {
      fc.assert(
        fc.property(
          secret,
          fc.string({ unit: fc.constantFrom(...'abcdefgh0123456789.-'), minLength: 1, maxLength: 12 }),
          fc.nat(),
          fc.nat(),
          (password, username, start, length) => {
            const scrubber = scrubberFor(password, `${username}:${password}`);
            const login = `${username}:${password}`;
            const size = 1 + (length % (login.length - 1));
            const at = start % (login.length - size + 1);
            const window = login.slice(at, at + size);
            fc.pre(!window.includes(password));
            expect(scrubber.text(window)).toBe(window);
            expect(scrubber.text(`Clerk ${username}`)).toBe(`Clerk ${username}`);
          },
        ),
        { numRuns: RUNS, seed: 3107 },
      );
    },
    TIMEOUT,
  );
});

describe('a secret shorter than 8 characters (finding 8)', () => {
  const short = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 1,
    maxLength: 7,
  });
  const word = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    minLength: 1,
    maxLength: 6,
  });

  it(
    'is left inside a longer word, an id, a date, a time or a path ("cats", "2024-11-03", "10:30", "a.b")',
    () => {
      fc.assert(
        fc.property(
          short,
          word,
          word,
          fc.constantFrom('', '-', '.', ':', '/', '_', '+', '@', "'"),
          (key, head, tail, join) => {
            const scrubber = scrubberFor(key);
            for (const text of [
              `${head}${join}${key}`,
              `${key}${join}${tail}`,
              `« ${head}${join}${key}${join}${tail} »`,
            ]) {
              expect(scrubber.text(text), text).toBe(text);
            }
            expect(scrubber.value({ status: Number(`1${key.replace(/\D/g, '')}`) || 200 })).toEqual({
              status: Number(`1${key.replace(/\D/g, '')}`) || 200,
            });
          },
        ),
        { numRuns: RUNS, seed: 3108 },
      );
    },
    TIMEOUT,
  );

  it(
    'is hidden where it stands alone, as itself or in any form',
    () => {
      fc.assert(
        fc.property(
          short,
          encoding,
          fc.constantFrom(' ', '"', "'", '(', '=', ', ', ': '),
          fc.gen(),
          (key, how, quote, g) => {
            const scrubber = scrubberFor(key);
            const close = ({ '(': ')', ', ': ',', ': ': '.' } as Record<string, string>)[quote] ?? quote;
            expect(scrubber.text(`→ ${quote}${key}${close}`)).toBe(`→ ${quote}${HIDDEN_KEY}${close}`);
            // a text that is all digits is a number (an id): a short secret is not looked for in it
            expect(scrubber.text(key)).toBe(/^\d+$/.test(key) ? key : HIDDEN_KEY);
            const form = encode(key, how, picker(g));
            expect(scrubber.text(`→ ${form} ←`)).toBe(`→ ${HIDDEN_KEY} ←`);
            const basic = Buffer.from(key).toString('base64');
            expect(scrubber.text(`→ ${basic} ←`)).toBe(`→ ${HIDDEN_KEY} ←`);
          },
        ),
        { numRuns: RUNS, seed: 3109 },
      );
    },
    TIMEOUT,
  );

  it('examples: "cat", "2024" and "200" as passwords', () => {
    const scrubber = scrubberFor('cat', '2024', '200');
    const kept = [
      'cats and concatenated catalogues',
      'Born 2024-11-03 at 10:30, id 120245, 2024.5 kg',
      'GET /v1/pets/2024 2000 OK',
      "the cat's toy",
    ];
    for (const text of kept) expect(scrubber.text(text)).toBe(text);
    // never in a number, nor in a text that is one (an animal's id)
    const data = { status: 200, year: 2024, id: '2024', categoryId: '200' };
    expect(scrubber.value(data)).toEqual(data);
    expect(scrubber.text('Wrong password "cat".')).toBe(`Wrong password "${HIDDEN_KEY}".`);
    expect(scrubber.text('password=2024&user=x')).toBe(`password=${HIDDEN_KEY}&user=x`);
  });
});

describe('examples the review gave', () => {
  it('hides a key whose punctuation alone is written as HTML references (the Store orders case)', () => {
    const key = 'Zk+9/aQ+x/7P+w/Lm+3/Ty=';
    const scrubber = scrubberFor(key);
    const forms = [
      key.replace(/\+/g, '&#43;').replace(/\//g, '&#47;'),
      key.replace(/\+/g, '&#x2b;').replace(/\//g, '&#X2F;'),
      key.replace(/\+/g, '&plus;').replace(/\//g, '&sol;').replace(/=/g, '&equals;'),
      key.replace(/\+/g, '&#0043;').replace(/\//g, '&sol;').replace(/=/g, '&#x0003d;'),
      // without ";" where no digit follows (browsers read "&#439" as one reference)
      key
        .replace(/\+(?!\d)/g, '&#43')
        .replace(/\+/g, '&#43;')
        .replace(/\/(?!\d)/g, '&#47')
        .replace(/\//g, '&#47;'),
      key.replace(/\+/g, '%2b').replace(/\//g, '&#47;'),
    ];
    for (const form of forms) {
      expect(htmlDecode(percentDecode(form)), 'the test writes the key').toBe(key);
      expect(scrubber.text(`{"echo":"${form}"}`), form).toBe(`{"echo":"${HIDDEN_KEY}"}`);
    }
  });
});
