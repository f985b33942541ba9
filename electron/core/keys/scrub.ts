/**
 * The one scrubber of everything that leaves the core for the renderer (router results,
 * events, diagnostics) and of the texts quoted from a service. It knows every API key the
 * core read or was given in this run (`remember`) and hides, in any string and any object
 * key (and in a number made of a key's digits): each key whole, URI-encoded (either case),
 * JSON-escaped, HTML-escaped and in base64 (standard or URL-safe), and every run of at least
 * `MIN_FRAGMENT` characters taken from one of those forms, so a key cut anywhere (by a
 * truncation in the core or by the service itself) leaves no usable part behind. It runs
 * before any truncation: `bounded` cuts only scrubbed text.
 */
import type { DiagnosticEntry } from '../../../src/shared/diagnostics';
import type { AppError, Result } from '../../../src/shared/result';

export const HIDDEN_KEY = '[hidden key]';
/** The shortest part of a key hidden on its own. Shorter keys are hidden whole only. */
export const MIN_FRAGMENT = 8;
/** Bounds of what crosses to the renderer, applied after scrubbing. */
export const LIMITS = { code: 64, message: 1000, header: 64 } as const;

/** `text` cut to `max` characters, with an ellipsis when it was longer. Scrub first. */
export function bounded(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Every byte of `key` percent-encoded, in lower or upper case. */
function everyBytePercent(bytes: Buffer, upper: boolean): string {
  const hex = [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  return upper ? hex.toUpperCase() : hex;
}

/**
 * The part of a value's base64 that only the key decides, wherever the key stands in the value:
 * for each of the three alignments, the key's bytes behind 0, 1 or 2 other bytes, without the
 * characters the bytes before and after it share (the first and the last group of four).
 */
function base64Middles(bytes: Buffer): string[] {
  const middles: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // the groups of three bytes that are the key's alone: from the first whole one to the last
    const start = offset === 0 ? 0 : 4;
    const end = 4 * Math.floor((offset + bytes.length) / 3);
    const middle = encoded.slice(start, Math.max(start, end));
    if (middle.length >= MIN_FRAGMENT) middles.push(middle, middle.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return middles;
}

const HTML_NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The forms in which a key can appear in what a service sends back: as it is, URI-encoded (in
 * either case of hex, its special characters or every byte), JSON-escaped, HTML-escaped (named or
 * numeric entities), and in base64, standard or URL-safe, at any alignment inside a longer value.
 */
function formsOf(key: string): string[] {
  const bytes = Buffer.from(key, 'utf8');
  const uri = encodeURIComponent(key);
  const forms = new Set([
    key,
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    everyBytePercent(bytes, false),
    everyBytePercent(bytes, true),
    JSON.stringify(key).slice(1, -1),
    key.replace(/[&<>"']/g, (c) => HTML_NAMED[c] ?? c),
    key.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    key.replace(/[&<>"']/g, (c) => `&#x${c.charCodeAt(0).toString(16)};`),
    ...base64Middles(bytes),
  ]);
  return [...forms];
}

/** Every MIN_FRAGMENT-long piece of `form`. */
function fragmentsOf(form: string): string[] {
  return Array.from({ length: Math.max(0, form.length - MIN_FRAGMENT + 1) }, (_, i) => form.slice(i, i + MIN_FRAGMENT));
}

export class Scrubber {
  readonly #keys = new Set<string>();
  /** Whole forms, longest first (so a longer form is hidden before a shorter one inside it). */
  #needles: string[] = [];
  /** Every MIN_FRAGMENT-long substring of every form of every key. */
  readonly #fragments = new Set<string>();
  /** The first two UTF-16 units of each fragment, as one number: a cheap test before the slice. */
  readonly #starts = new Set<number>();
  #hidden = 0;

  /** How many times something was hidden so far (the router checks an answer again when this moved). */
  get hiddenCount(): number {
    return this.#hidden;
  }

  /**
   * Hides `key` from now on. Keys are kept in this process's memory only. `notSecret`: a part of
   * the key anyone may know (a proxy login's "user:" before its password): the key is still hidden
   * whole, but a piece that the public part alone gives (in any form) is not hidden on its own, or
   * an animal whose id holds 8 digits of an employee number would be withheld as if it held a key.
   */
  remember(key: string, options: { notSecret?: string } = {}): void {
    if (key.length === 0 || this.#keys.has(key)) return;
    this.#keys.add(key);
    const forms = formsOf(key);
    const known = new Set(options.notSecret ? formsOf(options.notSecret).flatMap(fragmentsOf) : []);
    this.#needles = [...new Set([...this.#needles, ...forms])].sort((a, b) => b.length - a.length);
    for (const form of forms) {
      for (let i = 0; i + MIN_FRAGMENT <= form.length; i += 1) {
        const fragment = form.slice(i, i + MIN_FRAGMENT);
        if (known.has(fragment)) continue;
        this.#fragments.add(fragment);
        this.#starts.add(form.charCodeAt(i) * 0x10000 + form.charCodeAt(i + 1));
      }
    }
  }

  /** `text` with every known key (whole or any part of MIN_FRAGMENT characters or more) hidden. */
  text(text: string): string {
    if (this.#keys.size === 0 || text.length === 0) return text;
    let out = text;
    for (const needle of this.#needles) if (out.includes(needle)) out = out.split(needle).join(HIDDEN_KEY);
    out = this.#hideFragments(out);
    if (out !== text) this.#hidden += 1;
    return out;
  }

  /** A deep copy of a JSON-like value with every string and object key scrubbed. */
  value<T>(value: T): T {
    if (this.#keys.size === 0) return value;
    return this.#walk(value) as T;
  }

  #walk(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    // A key of digits may come back as a JSON number: then the number goes as a whole. Only a key
    // of MIN_FRAGMENT characters or more is looked for in a number: a shorter one would turn every
    // status code, count or id holding its digits into text (and break the answer's types).
    if (typeof value === 'number' || typeof value === 'bigint') {
      const digits = String(value);
      if (digits.length < MIN_FRAGMENT) return value;
      const holdsKey =
        this.#needles.some((needle) => needle.length >= MIN_FRAGMENT && digits.includes(needle)) ||
        this.#hideFragments(digits) !== digits;
      if (!holdsKey) return value;
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

  #hideFragments(text: string): string {
    if (this.#fragments.size === 0 || text.length < MIN_FRAGMENT) return text;
    let out = '';
    let copiedTo = 0;
    let hiddenTo = -1;
    for (let i = 0; i + MIN_FRAGMENT <= text.length; i += 1) {
      if (!this.#starts.has(text.charCodeAt(i) * 0x10000 + text.charCodeAt(i + 1))) continue;
      if (!this.#fragments.has(text.slice(i, i + MIN_FRAGMENT))) continue;
      if (i > hiddenTo) {
        // a new hidden run starts here
        out += text.slice(copiedTo, i) + HIDDEN_KEY;
      }
      hiddenTo = i + MIN_FRAGMENT;
      copiedTo = hiddenTo;
    }
    return hiddenTo < 0 ? text : out + text.slice(copiedTo);
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
