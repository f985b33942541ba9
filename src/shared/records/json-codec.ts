/**
 * The one JSON codec for service bodies. Nothing else parses or writes them.
 *
 * Integers of the int64 fields (`id`, `categoryId`) become exact decimal strings on the
 * way in and go out again as JSON integers with the same digits. Any other integer too
 * large for a double is kept as a decimal string rather than silently rounded.
 */
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { isInt64String } from './int64';

/** Keys whose integer values are int64 identifiers. */
export const INT64_KEYS: ReadonlySet<string> = new Set(['id', 'categoryId', 'petId']);

const INTEGER_LITERAL = /^-?\d+$/;

function reviveNumber(key: string, value: LosslessNumber): number | string {
  const text = value.toString();
  const integer = INTEGER_LITERAL.test(text);
  if (integer && INT64_KEYS.has(key)) return text === '-0' ? '0' : text;
  if (integer && !Number.isSafeInteger(Number(text))) return text;
  return Number(text);
}

/**
 * Parses a service body. Throws `SyntaxError` on malformed JSON (callers turn that into
 * a typed error). int64 fields come back as decimal strings.
 */
export function decodeJson(text: string): unknown {
  return parse(text, (key, value) => (isLosslessNumber(value) ? reviveNumber(key, value) : value));
}

/**
 * Parses JSON keeping every number as a `LosslessNumber`, for code that must tell a JSON
 * integer from a numeric string (the local service's request validation).
 */
export function decodeJsonLossless(text: string): unknown {
  return parse(text);
}

function toWire(key: string, value: unknown): unknown {
  if (typeof value === 'string' && INT64_KEYS.has(key) && isInt64String(value)) {
    return new LosslessNumber(value);
  }
  return value;
}

/** Serialises a value for a service body: int64 decimal strings go out as JSON integers. */
export function encodeJson(value: unknown): string {
  const text = stringify(value, (key, item) => toWire(key, item));
  if (text === undefined) throw new TypeError('value cannot be serialised as JSON');
  return text;
}
