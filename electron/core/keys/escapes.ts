/**
 * The ways a text can write a character other than as itself, for the scrubber (scrub.ts): three
 * families of escapes, each read the way its own decoder reads it.
 * - `percent`: `%XX` in either case (a run of them making one UTF-8 character, else one byte read
 *   as Latin-1, as `unescape` does) and `%uXXXX`;
 * - `html`: character references, numeric (`&#43;`, `&#x2B;`, any case, any number of leading
 *   zeros, the `;` optional as browsers allow) and named (`&plus;`, `&sol;`, …: every name of an
 *   ASCII character, of Latin-1 and of HTML 4; the legacy ones also without `;`);
 * - `backslash`: JSON and JavaScript escapes (`\uXXXX`, `\u{…}`, `\xXX`, `\n`…, and a backslash
 *   before any other punctuation: `\"`, `\/`, `\+`).
 * Each escape is read at any position (`escapeAt`), and a whole text can be decoded one level
 * (`decodeAll`), with each character of the result mapped back to the characters it came from.
 */

export type Family = 'percent' | 'html' | 'backslash';
export const FAMILIES: readonly Family[] = ['percent', 'html', 'backslash'];

/** The character that starts every escape of a family. */
export const INTRODUCER: Record<Family, string> = { percent: '%', html: '&', backslash: '\\' };

/** An escape: how many characters it takes, and the text (one character, as UTF-16) it stands for. */
export interface Escape {
  length: number;
  text: string;
}

// --- HTML character references ------------------------------------------------------------

/** Latin-1 (U+00A0 to U+00FF) by their HTML names, in order: each is also valid without `;`. */
const LATIN1 = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 ' +
  'sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc ' +
  'Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve ' +
  'Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute ' +
  'acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ' +
  'ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');

/** Every HTML name of a printable ASCII character (HTML 5 gives most punctuation one or more). */
const ASCII_NAMES: Record<string, string> = {
  excl: '!',
  quot: '"',
  QUOT: '"',
  num: '#',
  dollar: '$',
  percnt: '%',
  amp: '&',
  AMP: '&',
  apos: "'",
  lpar: '(',
  rpar: ')',
  ast: '*',
  midast: '*',
  plus: '+',
  comma: ',',
  period: '.',
  sol: '/',
  colon: ':',
  semi: ';',
  lt: '<',
  LT: '<',
  equals: '=',
  gt: '>',
  GT: '>',
  quest: '?',
  commat: '@',
  lsqb: '[',
  lbrack: '[',
  bsol: '\\',
  rsqb: ']',
  rbrack: ']',
  Hat: '^',
  lowbar: '_',
  UnderBar: '_',
  grave: '`',
  DiacriticalGrave: '`',
  lcub: '{',
  lbrace: '{',
  verbar: '|',
  vert: '|',
  VerticalLine: '|',
  rcub: '}',
  rbrace: '}',
};

/** The rest of HTML 4's names (its "special" and "symbol" sets), by code point. */
const HTML4: Record<string, number> = {
  OElig: 338,
  oelig: 339,
  Scaron: 352,
  scaron: 353,
  Yuml: 376,
  fnof: 402,
  circ: 710,
  tilde: 732,
  Alpha: 913,
  Beta: 914,
  Gamma: 915,
  Delta: 916,
  Epsilon: 917,
  Zeta: 918,
  Eta: 919,
  Theta: 920,
  Iota: 921,
  Kappa: 922,
  Lambda: 923,
  Mu: 924,
  Nu: 925,
  Xi: 926,
  Omicron: 927,
  Pi: 928,
  Rho: 929,
  Sigma: 931,
  Tau: 932,
  Upsilon: 933,
  Phi: 934,
  Chi: 935,
  Psi: 936,
  Omega: 937,
  alpha: 945,
  beta: 946,
  gamma: 947,
  delta: 948,
  epsilon: 949,
  zeta: 950,
  eta: 951,
  theta: 952,
  iota: 953,
  kappa: 954,
  lambda: 955,
  mu: 956,
  nu: 957,
  xi: 958,
  omicron: 959,
  pi: 960,
  rho: 961,
  sigmaf: 962,
  sigma: 963,
  tau: 964,
  upsilon: 965,
  phi: 966,
  chi: 967,
  psi: 968,
  omega: 969,
  thetasym: 977,
  upsih: 978,
  piv: 982,
  ensp: 8194,
  emsp: 8195,
  thinsp: 8201,
  zwnj: 8204,
  zwj: 8205,
  lrm: 8206,
  rlm: 8207,
  ndash: 8211,
  mdash: 8212,
  lsquo: 8216,
  rsquo: 8217,
  sbquo: 8218,
  ldquo: 8220,
  rdquo: 8221,
  bdquo: 8222,
  dagger: 8224,
  Dagger: 8225,
  bull: 8226,
  hellip: 8230,
  permil: 8240,
  prime: 8242,
  Prime: 8243,
  lsaquo: 8249,
  rsaquo: 8250,
  oline: 8254,
  frasl: 8260,
  euro: 8364,
  image: 8465,
  weierp: 8472,
  real: 8476,
  trade: 8482,
  alefsym: 8501,
  larr: 8592,
  uarr: 8593,
  rarr: 8594,
  darr: 8595,
  harr: 8596,
  crarr: 8629,
  lArr: 8656,
  uArr: 8657,
  rArr: 8658,
  dArr: 8659,
  hArr: 8660,
  forall: 8704,
  part: 8706,
  exist: 8707,
  empty: 8709,
  nabla: 8711,
  isin: 8712,
  notin: 8713,
  ni: 8715,
  prod: 8719,
  sum: 8721,
  minus: 8722,
  lowast: 8727,
  radic: 8730,
  prop: 8733,
  infin: 8734,
  ang: 8736,
  and: 8743,
  or: 8744,
  cap: 8745,
  cup: 8746,
  int: 8747,
  there4: 8756,
  sim: 8764,
  cong: 8773,
  asymp: 8776,
  ne: 8800,
  equiv: 8801,
  le: 8804,
  ge: 8805,
  sub: 8834,
  sup: 8835,
  nsub: 8836,
  sube: 8838,
  supe: 8839,
  oplus: 8853,
  otimes: 8855,
  perp: 8869,
  sdot: 8901,
  lceil: 8968,
  rceil: 8969,
  lfloor: 8970,
  rfloor: 8971,
  loz: 9674,
  spades: 9824,
  clubs: 9827,
  hearts: 9829,
  diams: 9830,
};

/** Every name this reads, with `;`. */
export const HTML_NAMES: ReadonlyMap<string, string> = new Map([
  ...Object.entries(ASCII_NAMES),
  ...LATIN1.map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  ...Object.entries(HTML4).map(([name, code]): [string, string] => [name, String.fromCodePoint(code)]),
  ['COPY', '©'],
  ['REG', '®'],
]);

/** The names browsers also read without `;` (HTML's legacy list): Latin-1 and these six. */
const LEGACY = new Set([...LATIN1, 'amp', 'AMP', 'lt', 'LT', 'gt', 'GT', 'quot', 'QUOT', 'COPY', 'REG']);
const LONGEST_NAME = Math.max(...[...HTML_NAMES.keys()].map((name) => name.length));
const LONGEST_LEGACY = Math.max(...[...LEGACY].map((name) => name.length));

/** What HTML makes of the C1 codes in a numeric reference (windows-1252), 0x80 to 0x9F. */
const WINDOWS_1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** The character a numeric reference stands for, as HTML reads it. */
function referenced(code: number): string {
  if (code >= 0x80 && code <= 0x9f) return String.fromCodePoint(WINDOWS_1252[code - 0x80]!);
  if (!(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const isAlnum = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function htmlAt(text: string, at: number): Escape | null {
  if (text.charCodeAt(at + 1) === 35 /* # */) {
    let i = at + 2;
    const hex = (text.charCodeAt(i) | 0x20) === 120; /* x or X */
    if (hex) i += 1;
    const digits = i;
    while (i < text.length && (hex ? isHex(text.charCodeAt(i)) : isDigit(text.charCodeAt(i)))) i += 1;
    if (i === digits) return null;
    // leading zeros do not count; more than 8 digits besides is out of range (U+FFFD, as 0 is)
    const significant = text.slice(digits, i).replace(/^0+/, '');
    const value = significant.length > 8 ? -1 : Number.parseInt(significant || '0', hex ? 16 : 10);
    if (text.charCodeAt(i) === 59 /* ; */) i += 1;
    return { length: i - at, text: referenced(value) };
  }
  let end = at + 1;
  while (end < text.length && end - at <= LONGEST_NAME && isAlnum(text.charCodeAt(end))) end += 1;
  const name = text.slice(at + 1, end);
  if (text.charCodeAt(end) === 59) {
    const named = HTML_NAMES.get(name);
    if (named !== undefined) return { length: end + 1 - at, text: named };
  }
  for (let length = Math.min(name.length, LONGEST_LEGACY); length >= 2; length -= 1) {
    const prefix = name.slice(0, length);
    if (LEGACY.has(prefix)) return { length: length + 1, text: HTML_NAMES.get(prefix)! };
  }
  return null;
}

// --- percent-encoding ----------------------------------------------------------------------

function hexByte(text: string, at: number): number {
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return isHex(high) && isHex(low) ? Number.parseInt(text.slice(at, at + 2), 16) : -1;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function percentAt(text: string, at: number): Escape | null {
  if ((text.charCodeAt(at + 1) | 0x20) === 117 /* u */) {
    const unit = /^[0-9a-fA-F]{4}/.exec(text.slice(at + 2, at + 6));
    if (unit) return { length: 6, text: String.fromCharCode(Number.parseInt(unit[0], 16)) };
  }
  const first = hexByte(text, at + 1);
  if (first < 0) return null;
  if (first < 0x80) return { length: 3, text: String.fromCharCode(first) };
  const count = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  if (count > 1) {
    const bytes = [first];
    for (let n = 1; n < count && text.charCodeAt(at + 3 * n) === 37; n += 1) {
      const next = hexByte(text, at + 3 * n + 1);
      if (next < 0) break;
      bytes.push(next);
    }
    if (bytes.length === count) {
      try {
        return { length: 3 * count, text: UTF8.decode(Uint8Array.from(bytes)) };
      } catch {
        // not UTF-8: the first byte alone, as Latin-1
      }
    }
  }
  return { length: 3, text: String.fromCharCode(first) };
}

// --- backslash escapes (JSON, JavaScript) ----------------------------------------------------

const CONTROL: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '0': '\0' };

function backslashAt(text: string, at: number): Escape | null {
  const next = text[at + 1];
  if (next === undefined) return null;
  if (next === 'u') {
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(text.slice(at + 2, at + 10));
    if (braced) {
      const code = Number.parseInt(braced[1]!, 16);
      return code <= 0x10ffff ? { length: braced[0].length + 2, text: String.fromCodePoint(code) } : null;
    }
    const unit = /^[0-9a-fA-F]{4}/.exec(text.slice(at + 2, at + 6));
    return unit ? { length: 6, text: String.fromCharCode(Number.parseInt(unit[0], 16)) } : null;
  }
  if (next === 'x') {
    const byte = hexByte(text, at + 2);
    return byte < 0 ? null : { length: 4, text: String.fromCharCode(byte) };
  }
  if (Object.hasOwn(CONTROL, next)) return { length: 2, text: CONTROL[next]! };
  const code = text.codePointAt(at + 1)!;
  if (isAlnum(code)) return null;
  // any other character escaped stands for itself (\" \\ \/ \' \+ \. …)
  const character = String.fromCodePoint(code);
  return { length: 1 + character.length, text: character };
}

/** The escape of `family` that starts at `at` in `text`, or null (the character there is then itself). */
export function escapeAt(text: string, at: number, family: Family): Escape | null {
  const introducer = text.charCodeAt(at);
  if (family === 'percent') return introducer === 37 ? percentAt(text, at) : null;
  if (family === 'html') return introducer === 38 ? htmlAt(text, at) : null;
  return introducer === 92 ? backslashAt(text, at) : null;
}

/**
 * A text decoded one level: `text`, and for each of its UTF-16 units the span of the source
 * it came from (`from[i]` to `to[i]`, exclusive).
 */
export interface Decoded {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

/** `source` with every escape of `family` decoded, reading from its start; null when it holds none. */
export function decodeAll(source: string, family: Family): Decoded | null {
  if (!source.includes(INTRODUCER[family])) return null;
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let decoded = false;
  for (let at = 0; at < source.length;) {
    const escape = escapeAt(source, at, family);
    const length = escape?.length ?? 1;
    const text = escape?.text ?? source[at]!;
    decoded ||= escape !== null;
    parts.push(text);
    for (let i = 0; i < text.length; i += 1) {
      from.push(at);
      to.push(at + length);
    }
    at += length;
  }
  return decoded ? { text: parts.join(''), from: Int32Array.from(from), to: Int32Array.from(to) } : null;
}
