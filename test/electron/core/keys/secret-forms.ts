/**
 * The forms in which a service may echo a secret, written the way real encoders write them (each
 * with the freedom its decoders allow: any character escaped or not, either case, leading zeros,
 * named or numeric references), and independent decoders to tell whether a text still holds a
 * secret whole: Node's URI and base64 decoders, JSON.parse, and happy-dom's HTML parser. For the
 * scrubber's tests (scrub-properties.test.ts, scrub-oracle.test.ts, escapes.test.ts).
 */
import fc from 'fast-check';
import { Window } from 'happy-dom';

let window: Window | null = null;

/** What an HTML parser (happy-dom's) makes of `html` as text content. */
export function htmlDecode(html: string): string {
  window ??= new Window();
  const element = window.document.createElement('div');
  element.innerHTML = html;
  return element.textContent ?? '';
}

export async function closeHtml(): Promise<void> {
  await window?.happyDOM.close();
  window = null;
}

/** `text` with every run of valid percent-escapes decoded (as UTF-8, else as `unescape` does). */
export function percentDecode(text: string): string {
  return text.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return unescape(run);
    }
  });
}

/**
 * Whether `text`, read by an independent decoder, still holds the whole `secret` (from any start:
 * a window of a form can, such as `9%21%21…` cut from `%39%21%21…`, its first character then
 * written as itself).
 */
export function holdsWhole(text: string, secret: string, options: { html?: boolean } = {}): boolean {
  let json = '';
  try {
    json = JSON.parse(`"${text}"`) as string;
  } catch {
    // not the inside of a JSON string
  }
  const readings = [text, percentDecode(text), json, ...(options.html ? [htmlDecode(text)] : [])];
  for (let start = 1; start < text.length && start < 4; start += 1) readings.push(percentDecode(text.slice(start)));
  const bytes = Buffer.from(secret).toString('latin1');
  const base64 = [0, 1, 2, 3].map((offset) => Buffer.from(text.slice(offset), 'base64').toString('latin1'));
  return readings.some((decoded) => decoded.includes(secret)) || base64.some((decoded) => decoded.includes(bytes));
}

/** Whole forms of a secret that are not the secret as written, as their windows are cut from. */
export function formsOf(secret: string): Record<string, string> {
  const bytes = [...Buffer.from(secret, 'utf8')];
  const uri = encodeURIComponent(secret);
  return {
    raw: secret,
    uri,
    uriLower: uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    everyByte: bytes.map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    everyByteUpper: bytes.map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
    json: JSON.stringify(secret).slice(1, -1),
    // the last ";" left out: browsers read "&#43" as "+" too, so the form is whole without it
    html: secret.replace(/[^A-Za-z0-9]/gu, (c) => `&#${c.codePointAt(0)};`).replace(/;$/, ''),
    // without padding: "=" carries no bit of the secret, and the form is whole without it
    base64: Buffer.from(secret).toString('base64').replace(/=+$/, ''),
    base64url: Buffer.from(secret).toString('base64url'),
  };
}

/** The names an HTML encoder may write, by character (a few of HTML's: the scrubber must read any it knows). */
export const HTML_NAMED: Record<string, string[]> = {
  '!': ['excl'],
  '"': ['quot', 'QUOT'],
  '#': ['num'],
  $: ['dollar'],
  '%': ['percnt'],
  '&': ['amp', 'AMP'],
  "'": ['apos'],
  '(': ['lpar'],
  ')': ['rpar'],
  '*': ['ast', 'midast'],
  '+': ['plus'],
  ',': ['comma'],
  '.': ['period'],
  '/': ['sol'],
  ':': ['colon'],
  ';': ['semi'],
  '<': ['lt', 'LT'],
  '=': ['equals'],
  '>': ['gt', 'GT'],
  '?': ['quest'],
  '@': ['commat'],
  '\\': ['bsol'],
  ']': ['rsqb', 'rbrack'],
  '^': ['Hat'],
  _: ['lowbar', 'UnderBar'],
  '`': ['grave', 'DiacriticalGrave'],
  '{': ['lcub', 'lbrace'],
  '|': ['verbar', 'vert', 'VerticalLine'],
  '}': ['rcub', 'rbrace'],
  é: ['eacute'],
  ñ: ['ntilde'],
  ß: ['szlig'],
  '€': ['euro'],
};

type Pick = (max: number) => number;

const hex = (value: number, width: number, upper: boolean): string => {
  const text = value.toString(16).padStart(width, '0');
  return upper ? text.toUpperCase() : text;
};

/** One character percent-encoded (its UTF-8 bytes, each in either case) or, as `escape` does, `%uXXXX`. */
function percentOne(c: string, pick: Pick): string {
  const choice = pick(3);
  if (choice === 0 && c !== '%') return c;
  if (choice === 2 && c.length === 1 && c.charCodeAt(0) > 0xff) return `%u${hex(c.charCodeAt(0), 4, pick(1) === 1)}`;
  return [...Buffer.from(c, 'utf8')].map((byte) => `%${hex(byte, 2, pick(1) === 1)}`).join('');
}

/** One character as HTML writes it: itself (never "&"), a decimal or hex reference (leading zeros, either case) or a name. */
function htmlOne(c: string, pick: Pick): string {
  const code = c.codePointAt(0)!;
  const names = HTML_NAMED[c] ?? [];
  const choice = pick(3);
  if (choice === 0 && c !== '&' && c !== '<') return c;
  if (choice === 1) return `&#${'0'.repeat(pick(3))}${code};`;
  if (choice === 2 || names.length === 0)
    return `&#${pick(1) === 1 ? 'X' : 'x'}${'0'.repeat(pick(3))}${hex(code, 1, pick(1) === 1)};`;
  return `&${names[pick(names.length - 1)]};`;
}

/** One character as JSON or JavaScript writes it: itself (never "\"), `\uXXXX`, `\u{…}`, `\xXX`, or `\` before punctuation. */
function backslashOne(c: string, pick: Pick): string {
  const code = c.codePointAt(0)!;
  const choice = pick(4);
  if (choice === 0 && c !== '\\') return c;
  if (choice === 2) return `\\u{${hex(code, 1, pick(1) === 1)}}`;
  if (choice === 3 && code <= 0xff) return `\\x${hex(code, 2, pick(1) === 1)}`;
  if (choice === 4 && /^[!-/:-@[-`{-~]$/.test(c)) return `\\${c}`;
  return [...c]
    .flatMap((point) => (point.length === 2 ? [point.charCodeAt(0), point.charCodeAt(1)] : [point.charCodeAt(0)]))
    .map((unit) => `\\u${hex(unit, 4, pick(1) === 1)}`)
    .join('');
}

export const TEXT_ENCODINGS = { percent: percentOne, html: htmlOne, backslash: backslashOne } as const;
export type TextEncoding = keyof typeof TEXT_ENCODINGS;

/** `text` written by `encoding`, each character's form picked by `pick`. */
export function encode(text: string, encoding: TextEncoding, pick: Pick): string {
  return [...text].map((c) => TEXT_ENCODINGS[encoding](c, pick)).join('');
}

/** A `Pick` drawn from fast-check's generator. */
export function picker(g: fc.GeneratorValue): Pick {
  return (max) => g(fc.nat, { max });
}
