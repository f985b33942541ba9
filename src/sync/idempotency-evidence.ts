/**
 * Whether a profile's service has shown that it honours `Idempotency-Key`. The interface
 * never mentions the header, so the app assumes nothing until the service proves it:
 * - a replay: a send with a key already used answered with the animal of the first send
 *   (an id the app already knew, or one staff had said was not this entry's);
 * - an idempotency answer: 409 (a request with this key is in progress) or 422 (this key was
 *   used with another body) whose code or message names idempotency.
 * The proof is kept in the profile's database, for the service address it was seen at (a
 * profile pointed at another service proves nothing about it). Keys are kept by services for
 * a limited time (the interface says nothing; 24 hours is common), so the proof is relied on
 * only for a doubt younger than `KEYS_TRUSTED_MS`.
 */
import type { AppError } from '../shared/app-api/result';
import { z } from '../shared/basics/zod';
import type { ProfileDb } from '../storage';

export const EVIDENCE_KEY = 'idempotency-evidence';
/** How long after a doubt began a resend with the same key is trusted to replay, not create. */
export const KEYS_TRUSTED_MS = 60 * 60 * 1000;

const Evidence = z.object({ serviceUrl: z.string(), how: z.string(), at: z.number() });
export type IdempotencyEvidence = z.infer<typeof Evidence>;

/** The proof for `serviceUrl`, or null (none, another address, or a row that does not parse). */
export async function readEvidence(db: ProfileDb, serviceUrl: string | null): Promise<IdempotencyEvidence | null> {
  if (!serviceUrl) return null;
  const parsed = Evidence.safeParse((await db.meta.get(EVIDENCE_KEY))?.value);
  return parsed.success && parsed.data.serviceUrl === serviceUrl ? parsed.data : null;
}

export async function recordEvidence(db: ProfileDb, serviceUrl: string | null, how: string, at: number): Promise<void> {
  if (!serviceUrl) return;
  const value: IdempotencyEvidence = { serviceUrl, how, at };
  await db.meta.put({ key: EVIDENCE_KEY, value });
}

/** A 409 or 422 that says it is about the idempotency key. */
export function isIdempotencyAnswer(error: AppError): boolean {
  if (error.status !== 409 && error.status !== 422) return false;
  return /idempoten/i.test(`${error.serviceCode ?? ''} ${error.message}`);
}

/**
 * Whether a resend with the entry's key is certain to replay rather than create. The doubt's
 * age is read on the wall clock (its start is stored); one that began "after" now was stored
 * before the clock was set back, by how much is unknown, so it is not taken for young.
 */
export function keysTrusted(evidence: IdempotencyEvidence | null, doubtSince: number, now: number): boolean {
  const age = now - doubtSince;
  return evidence !== null && age >= 0 && age < KEYS_TRUSTED_MS;
}
