/**
 * The one scrubber of everything that leaves the core for the renderer (router results,
 * events, diagnostics, log lines) and of the texts quoted from a service. It knows every secret
 * the core read or was given in this run (`remember`: API keys, proxy passwords and logins) and
 * hides each one WHOLE, in any string, object key or number, in every form a service may echo
 * it in:
 * - as it is, and read with one or two levels of escapes decoded (escapes.ts: percent-encoding
 *   in either case, HTML character references numeric or named, JSON and JavaScript escapes,
 *   each character escaped or not, a level inside another), from wherever the form starts;
 * - in base64, standard or URL-safe, at any alignment inside a longer value: every character
 *   that carries a bit of the secret is hidden;
 * - in a number made of its digits (a key of 8 digits or more).
 * It never hides a piece of a secret: a piece comes back exactly as any other text of its
 * length, so an answer tells a caller nothing about a secret it has not guessed whole (the
 * scrubber was an oracle when it hid pieces: security review 2026-11, finding 2). So it runs
 * before anything is cut: `bounded` cuts only scrubbed text, and no cut can leave a piece behind
 * that was whole before.
 * A secret of fewer than SHORT_SECRET_LENGTH characters is hidden only where it stands alone as
 * a word (not inside "cats", an id or a date), and never in a number or a text that is one (an
 * id written as a string), so that it does not blank data (finding 8).
 */
import { isShortSecret } from '../../../src/shared/app-api/api';
import type { DiagnosticEntry } from '../../../src/shared/app-api/diagnostics';
import type { AppError, Result } from '../../../src/shared/app-api/result';
import { decodeAll, escapeAt, FAMILIES, type Family, INTRODUCER } from './escapes';

export const HIDDEN_KEY = '[hidden key]';
/** Bounds of what crosses to the renderer, applied after scrubbing. */
export const LIMITS = { code: 64, message: 1000, header: 64 } as const;

/** `text` cut to `max` characters, with an ellipsis when it was longer. Scrub first. */
export function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * How many leading UTF-16 units index a secret hidden anywhere (all such secrets have as many),
 * and, for the longer ones, twice as many (keys often share a public prefix such as "sk_live_").
 */
const PREFIX = 8;
const LONG_PREFIX = 16;

/** Needles to look for: long ones (hidden anywhere) by their first units, short ones whole. */
class Needles {
  /** Long needles by their first PREFIX units (those shorter than LONG_PREFIX), or LONG_PREFIX units. */
  readonly long = new Map<string, string[]>();
  readonly longer = new Map<string, string[]>();
  readonly short = new Set<string>();
  shortLengths: number[] = [];
  /** The first UTF-16 unit of every needle, as a bitmap: a cheap test before anything else. */
  readonly firsts = new Uint8Array(0x10000);
  /** The fewest units of a long needle. */
  shortestLong = Number.POSITIVE_INFINITY;

  add(needle: string, short: boolean): void {
    this.firsts[needle.charCodeAt(0)] = 1;
    if (short) {
      this.short.add(needle);
      if (!this.shortLengths.includes(needle.length)) this.shortLengths.push(needle.length);
      return;
    }
    const [index, head] =
      needle.length >= LONG_PREFIX ? [this.longer, needle.slice(0, LONG_PREFIX)] : [this.long, needle.slice(0, PREFIX)];
    const list = index.get(head);
    if (list) list.push(needle);
    else index.set(head, [needle]);
    this.shortestLong = Math.min(this.shortestLong, needle.length);
  }

  /** The long needles that may start with `head` (the first LONG_PREFIX units read, or fewer at the end). */
  candidates(head: string): string[] {
    const some = head.length >= PREFIX ? this.long.get(head.slice(0, PREFIX)) : undefined;
    const more = head.length >= LONG_PREFIX ? this.longer.get(head.slice(0, LONG_PREFIX)) : undefined;
    return some && more ? [...some, ...more] : (some ?? more ?? []);
  }
}

/** Told where a needle was found: [start, end) in the text searched, and whether it is a short one. */
interface Sink {
  found(start: number, end: number, short: boolean): void;
}

/**
 * The end of `needle` read in `text` from `start`, each escape of `family` taken for what it
 * stands for (null: as written); -1 when it is not there.
 */
function readFrom(text: string, start: number, needle: string, family: Family | null): number {
  let at = start;
  for (let k = 0; k < needle.length;) {
    if (at >= text.length) return -1;
    const escape = family ? escapeAt(text, at, family) : null;
    if (escape) {
      if (!needle.startsWith(escape.text, k)) return -1;
      k += escape.text.length;
      at += escape.length;
    } else {
      if (text.charCodeAt(at) !== needle.charCodeAt(k)) return -1;
      k += 1;
      at += 1;
    }
  }
  return at;
}

/**
 * Every occurrence of `needles` in `text`, starting anywhere, read as written (`family` null:
 * long and short needles) or with `family`'s escapes decoded from that start (long ones only).
 */
function find(text: string, needles: Needles, family: Family | null, sink: Sink): void {
  const { firsts } = needles;
  const introducer = family ? INTRODUCER[family].charCodeAt(0) : -1;
  for (let start = 0; start < text.length; start += 1) {
    const code = text.charCodeAt(start);
    const escape = code === introducer ? escapeAt(text, start, family!) : null;
    if (firsts[escape ? escape.text.charCodeAt(0) : code] !== 1) continue;
    let head: string;
    if (family === null) {
      for (const length of needles.shortLengths) {
        if (start + length <= text.length && needles.short.has(text.slice(start, start + length))) {
          sink.found(start, start + length, true);
        }
      }
      head = text.slice(start, start + LONG_PREFIX);
    } else {
      head = '';
      for (let at = start; head.length < LONG_PREFIX && at < text.length;) {
        const unit = escapeAt(text, at, family);
        head += unit ? unit.text : text[at];
        at += unit ? unit.length : 1;
      }
    }
    if (head.length < PREFIX) continue;
    for (const needle of needles.candidates(head)) {
      const end = readFrom(text, start, needle, family);
      if (end >= 0) sink.found(start, end, false);
    }
  }
}

/** A text that is a number (an id written as a string): no short secret is looked for in it, as in a number. */
const DIGITS = /^[-+]?\d+$/;
const WORD = /^[\p{L}\p{N}\p{M}_]$/u;
/** Characters that join two words into one ("2024-11-03", "10:30", "a.b", "a/b", "it's"). */
const JOINER = /^[-.:/+@~'\u2019]$/;

function charBefore(text: string, at: number): string {
  if (at <= 0) return '';
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(at - 1, at);
}

function charAfter(text: string, at: number): string {
  return at >= text.length ? '' : String.fromCodePoint(text.codePointAt(at)!);
}

/** Whether `text[start, end)` stands alone as a word: no letter, digit or joined word on either side. */
function standsAlone(text: string, start: number, end: number): boolean {
  const before = charBefore(text, start);
  if (WORD.test(before) || (JOINER.test(before) && WORD.test(charBefore(text, start - before.length)))) return false;
  const after = charAfter(text, end);
  return !(WORD.test(after) || (JOINER.test(after) && WORD.test(charAfter(text, end + after.length))));
}

/** The value of each base64 character (either alphabet), -1 for the others. */
const BASE64_VALUE = new Int8Array(128).fill(-1);
[...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].forEach((c, i) => {
  BASE64_VALUE[c.charCodeAt(0)] = i;
});
for (const [c, value] of [
  ['+', 62],
  ['/', 63],
  ['-', 62],
  ['_', 63],
] as const)
  BASE64_VALUE[c.charCodeAt(0)] = value;

/**
 * Collects the spans of the original text to hide, from matches in one view of it (the text
 * itself, or the text decoded one level, whose characters map back to the original's).
 */
class Spans implements Sink {
  readonly list: number[] = [];
  view = '';
  from: Int32Array | null = null;
  to: Int32Array | null = null;
  /** Set while reading decoded base64: where in the view the decoded bytes start. */
  base64At = -1;

  found(start: number, end: number, short: boolean): void {
    if (this.base64At >= 0) {
      // the characters holding any bit of bytes [start, end)
      this.add(this.base64At + Math.floor((8 * start) / 6), this.base64At + Math.ceil((8 * end) / 6));
    } else if (!short || (!DIGITS.test(this.view) && standsAlone(this.view, start, end))) {
      this.add(start, end);
    }
  }

  add(start: number, end: number): void {
    if (this.from && this.to) this.list.push(this.from[start]!, this.to[end - 1]!);
    else this.list.push(start, end);
  }
}

/** Stops at the first long needle found (a number holds a key). */
class Holds implements Sink {
  key = false;
  found(_start: number, _end: number, short: boolean): void {
    this.key ||= !short;
  }
}

export class Scrubber {
  readonly #secrets = new Set<string>();
  /** Every secret and its other literal spellings (a password's spaces as "+"). */
  readonly #text = new Needles();
  /** Every long secret's UTF-8 bytes (as Latin-1 text): looked for in what base64 decodes to. */
  readonly #bytes = new Needles();
  /** The first group of three bytes only a long secret decides, at each alignment, as 24 bits. */
  readonly #groups = new Set<number>();
  /** The base64 of every short secret (standard alphabet, no padding): hidden when a word of its own. */
  readonly #shortBase64 = new Set<string>();
  #hidden = 0;

  /** How many times something was hidden so far (the router checks an answer again when this moved). */
  get hiddenCount(): number {
    return this.#hidden;
  }

  /** Hides `secret`, whole and in every form, from now on. Secrets are kept in this process's memory only. */
  remember(secret: string): void {
    if (secret.length === 0 || this.#secrets.has(secret)) return;
    const short = isShortSecret(secret);
    this.#secrets.add(secret);
    this.#text.add(secret, short);
    // a password's spaces, as a form writes them
    if (secret.includes(' ')) this.#text.add(secret.replaceAll(' ', '+'), short);
    const bytes = Buffer.from(secret, 'utf8');
    if (short) {
      this.#shortBase64.add(bytes.toString('base64').replace(/=+$/, ''));
      return;
    }
    this.#bytes.add(bytes.toString('latin1'), false);
    // behind 0, 1 or 2 other bytes, the key's first whole group starts 0, 2 or 1 bytes in
    for (const skip of [0, 1, 2]) this.#groups.add((bytes[skip]! << 16) | (bytes[skip + 1]! << 8) | bytes[skip + 2]!);
  }

  /** `text` with every known secret, whole and in any of its forms, hidden. */
  text(text: string): string {
    if (this.#secrets.size === 0 || text.length === 0) return text;
    const spans = new Spans();
    this.#look(text, spans);
    for (const family of FAMILIES) {
      const decoded = decodeAll(text, family);
      if (!decoded) continue;
      spans.from = decoded.from;
      spans.to = decoded.to;
      this.#look(decoded.text, spans);
    }
    const list = spans.list;
    if (list.length === 0) return text;
    this.#hidden += 1;
    const order = Array.from({ length: list.length / 2 }, (_, i) => i).sort(
      (a, b) => list[2 * a]! - list[2 * b]! || list[2 * b + 1]! - list[2 * a + 1]!,
    );
    let out = '';
    let copiedTo = 0;
    for (let i = 0; i < order.length;) {
      const start = list[2 * order[i]!]!;
      let end = list[2 * order[i]! + 1]!;
      // overlapping forms (a login and its password) make one hidden run
      for (i += 1; i < order.length && list[2 * order[i]!]! < end; i += 1)
        end = Math.max(end, list[2 * order[i]! + 1]!);
      out += text.slice(copiedTo, start) + HIDDEN_KEY;
      copiedTo = end;
    }
    return out + text.slice(copiedTo);
  }

  /** A deep copy of a JSON-like value with every string and object key scrubbed. */
  value<T>(value: T): T {
    if (this.#secrets.size === 0) return value;
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    // A key of digits may come back as a JSON number: then the number goes as a whole. A short
    // secret is not looked for in numbers: every status code, count or id holding its digits
    // would turn into text (and break the answer's types).
    if (typeof value === 'number' || typeof value === 'bigint') {
      const holds = new Holds();
      find(String(value), this.#text, null, holds);
      if (!holds.key) return value;
      this.#hidden += 1;
      return HIDDEN_KEY;
    }
    if (Array.isArray(value)) return value.map((item) => this.#walk(item));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      // defineProperty: a scrubbed name such as "__proto__" stays a plain own property
      Object.defineProperty(out, this.text(name), { value: this.#walk(item), enumerable: true, writable: true });
    }
    return out;
  }

  /** Looks in one view of a text: as written, with each family's escapes read, and its base64. */
  #look(view: string, spans: Spans): void {
    spans.view = view;
    find(view, this.#text, null, spans);
    for (const family of FAMILIES) {
      if (view.includes(INTRODUCER[family])) find(view, this.#text, family, spans);
    }
    if (this.#groups.size > 0 || this.#shortBase64.size > 0) this.#base64(view, spans);
  }

  /** Finds, in every run of base64 characters, the characters that carry a known secret's bits. */
  #base64(view: string, spans: Spans): void {
    const longRun = Math.ceil((8 * this.#bytes.shortestLong) / 6);
    let runStart = 0;
    let bits = 0;
    /** The offsets (from the run's start, modulo 4) at which a group of a long secret was seen. */
    let offsets = 0;
    for (let at = 0; at <= view.length; at += 1) {
      const code = at < view.length ? view.charCodeAt(at) : -1;
      const value = code >= 0 && code < 128 ? BASE64_VALUE[code]! : -1;
      if (value >= 0) {
        bits = ((bits << 6) | value) & 0xffffff;
        if (at - runStart >= 3 && this.#groups.has(bits)) offsets |= 1 << ((at - 3 - runStart) % 4);
        continue;
      }
      if (at > runStart) this.#run(view, runStart, at, at - runStart >= longRun ? offsets : 0, spans);
      runStart = at + 1;
      bits = 0;
      offsets = 0;
    }
  }

  /** A run of base64 characters, view[start, end): the secrets it holds, at the offsets worth decoding. */
  #run(view: string, start: number, end: number, offsets: number, spans: Spans): void {
    if (this.#shortBase64.size > 0) {
      const run = view.slice(start, end).replaceAll('-', '+').replaceAll('_', '/');
      if (this.#shortBase64.has(run)) {
        let after = end;
        while (view[after] === '=') after += 1;
        if (standsAlone(view, start, after)) spans.add(start, after);
      }
    }
    for (let offset = 0; offset < 4; offset += 1) {
      if ((offsets & (1 << offset)) === 0) continue;
      // decoding from this offset, the secret's bytes may start anywhere in the groups before the one seen
      spans.base64At = start + offset;
      find(Buffer.from(view.slice(start + offset, end), 'base64').toString('latin1'), this.#bytes, null, spans);
      spans.base64At = -1;
    }
  }
}

/** An error's string fields scrubbed, then bounded. */
export function scrubError(error: AppError, scrubber: Scrubber): AppError {
  const scrubbed = scrubber.value(error);
  return {
    ...scrubbed,
    code: bounded(scrubbed.code, LIMITS.code),
    message: bounded(scrubbed.message, LIMITS.message),
    ...(scrubbed.serviceCode !== undefined ? { serviceCode: bounded(scrubbed.serviceCode, LIMITS.code) } : {}),
  };
}

/** A request-log entry scrubbed, its header values and outcome bounded. */
export function scrubDiagnosticEntry(entry: DiagnosticEntry, scrubber: Scrubber): DiagnosticEntry {
  const scrubbed = scrubber.value(entry);
  const header = (value: string | null): string | null => (value === null ? null : bounded(value, LIMITS.header));
  return {
    ...scrubbed,
    outcome: bounded(scrubbed.outcome, LIMITS.code),
    rateLimit: {
      limit: header(scrubbed.rateLimit.limit),
      remaining: header(scrubbed.rateLimit.remaining),
      reset: header(scrubbed.rateLimit.reset),
      retryAfter: header(scrubbed.rateLimit.retryAfter),
    },
  };
}

/**
 * What the router answers for `channel`, scrubbed: an error's fields, or the whole data, with
 * the header values it quotes bounded (diagnostics entries, getPet's deprecation headers).
 */
export function scrubResult(channel: string, result: Result<unknown>, scrubber: Scrubber): Result<unknown> {
  if (!result.ok) return { ok: false, error: scrubError(result.error, scrubber) };
  const data = scrubber.value(result.data);
  const record = data as Record<string, unknown>;
  if (channel === 'diagnostics' && Array.isArray(record.entries)) {
    const entries = (record.entries as DiagnosticEntry[]).map((entry) => scrubDiagnosticEntry(entry, scrubber));
    return { ok: true, data: { ...record, entries } };
  }
  const deprecation = record.deprecation as Record<'deprecation' | 'sunset', string | null> | undefined;
  if (channel === 'getPet' && deprecation) {
    const cut = (value: string | null): string | null => (value === null ? null : bounded(value, LIMITS.header));
    return {
      ok: true,
      data: { ...record, deprecation: { deprecation: cut(deprecation.deprecation), sunset: cut(deprecation.sunset) } },
    };
  }
  return { ok: true, data };
}
