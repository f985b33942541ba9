/**
 * int64 identifiers are kept as canonical decimal strings inside the app, so that
 * ids above 2^53 survive JSON, IPC, IndexedDB and the screen digit for digit.
 */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL = /^-?(0|[1-9]\d*)$/;

/** True when `text` is a canonical decimal integer inside the int64 range. */
export function isInt64String(text: string): boolean {
  if (!DECIMAL.test(text) || text === '-0' || text.length > 20) return false;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX;
}

/** Orders two int64 decimal strings numerically (for sorting by id). */
export function compareInt64(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Turns what staff type ("007", " 42 ") into the canonical decimal string ("7", "42");
 * text that is no whole number is returned trimmed, for the schema to reject with its message.
 */
export function canonicalInt64(text: string): string {
  const trimmed = text.trim();
  if (/^-?\d{1,25}$/.test(trimmed)) return BigInt(trimmed).toString();
  return trimmed;
}
