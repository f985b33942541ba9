/**
 * Request validation, strict by design: each failure is a 400 Error body naming the field. Bodies
 * are parsed with the shared codec keeping numbers lossless, so `categoryId: "7"` (a string) is refused.
 */
import { isLosslessNumber } from 'lossless-json';
import { LIMIT_DEFAULT, LIMIT_MAX, LIMIT_MIN, ANIMAL_STATUSES, AnimalStatus } from '../../src/shared/records/animal';
import { isInt64String } from '../../src/shared/records/int64';
import { decodeJsonLossless } from '../../src/shared/records/json-codec';
import { errorReply, type Reply } from './http-io';
import type { NewAnimal } from './store';

export type Checked<T> = { ok: true; value: T } | { ok: false; reply: Reply };

const invalid = (code: string, message: string): { ok: false; reply: Reply } => ({
  ok: false,
  reply: errorReply(400, code, message),
});

const STATUS_LIST = ANIMAL_STATUSES.join(', ');

/** `application/json`, with or without parameters. */
export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && /^application\/json\s*(;|$)/i.test(header.trim());
}

/** Validates a `POST /pets` body. A missing `status` becomes `available` (our choice). */
export function checkNewPet(text: string): Checked<NewAnimal> {
  let body: unknown;
  try {
    body = decodeJsonLossless(text);
  } catch (error) {
    return invalid('invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || isLosslessNumber(body)) {
    return invalid('invalid_body', 'request body must be a JSON object (NewPet)');
  }
  const { name, categoryId, status } = body as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') {
    return invalid('invalid_field', 'name is required and must be a non-blank string');
  }
  const categoryText = isLosslessNumber(categoryId) ? categoryId.toString() : undefined;
  if (categoryText === undefined || !isInt64String(categoryText)) {
    return invalid('invalid_field', 'categoryId is required and must be a JSON integer in the int64 range');
  }
  if (status !== undefined && !AnimalStatus.safeParse(status).success) {
    return invalid('invalid_field', `status must be one of ${STATUS_LIST}`);
  }
  return { ok: true, value: { name, categoryId: categoryText, status: (status as AnimalStatus) ?? 'available' } };
}

export interface ListParams {
  limit: number;
  status: AnimalStatus | undefined;
}

/** Validates the query of `GET /pets`; unknown parameters are ignored, repeated ones refused. */
export function checkListQuery(query: URLSearchParams): Checked<ListParams> {
  const limits = query.getAll('limit');
  const statuses = query.getAll('status');
  if (limits.length > 1) return invalid('invalid_parameter', 'limit must be given at most once');
  if (statuses.length > 1) return invalid('invalid_parameter', 'status must be given at most once');
  let limit = LIMIT_DEFAULT;
  const limitText = limits[0];
  if (limitText !== undefined) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= LIMIT_MIN && limit <= LIMIT_MAX)) {
      return invalid('invalid_parameter', `limit must be a whole number from ${LIMIT_MIN} to ${LIMIT_MAX}`);
    }
  }
  const status = statuses[0];
  if (status !== undefined && !AnimalStatus.safeParse(status).success) {
    return invalid('invalid_parameter', `status must be one of ${STATUS_LIST}`);
  }
  return { ok: true, value: { limit, status: status as AnimalStatus | undefined } };
}

/** Validates the `petId` path segment: an int64 in canonical decimal form. */
export function checkPetId(segment: string): Checked<string> {
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    text = segment;
  }
  return isInt64String(text)
    ? { ok: true, value: text }
    : invalid('invalid_parameter', 'petId must be an int64 integer');
}
