/** Bearer authentication: which key a request carries, and the hash that stands for it in logs. */
import { createHash } from 'node:crypto';

/**
 * token68 (RFC 9110 §11.2), the shape of a bearer credential. The scheme name is
 * case-insensitive (RFC 9110 §11.1): `bearer KEY` is the same as `Bearer KEY`.
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The key of `Authorization: Bearer <key>`, or null when missing or malformed. */
export function bearerKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  return BEARER.exec(header.trim())?.[1] ?? null;
}

/** Stands for a key in logs and records: first 12 hex digits of its sha256. Never log the key. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** Why a request is unauthenticated, for the 401 message. */
export function unauthorizedMessage(header: string | undefined): string {
  if (header === undefined) return 'missing API key: send Authorization: Bearer <key>';
  if (bearerKey(header) === null) return 'malformed Authorization header: expected Bearer <key>';
  return 'unknown API key';
}
