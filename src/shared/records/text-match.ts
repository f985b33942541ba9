/**
 * How two names are compared when looking for the same animal entered twice, or for a known
 * category name: trimmed, inner spaces collapsed, case- and accent-insensitive ("  Chloé " and
 * "chloe" match). NFKD splits accented letters into the letter and its mark; the marks go.
 */
export function matchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}
