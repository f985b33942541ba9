/** The outbox's stored-row schema, its errors, and small conversions shared by its readers. */
import { z } from 'zod';
import { Animal, Int64, NewPet } from '../shared/animal';
import { AppError } from '../shared/result';
import { OUTBOX_STATES, type OutboxEntry, type OutboxRow, type QuarantinedRow } from './db';

export const OutboxRowSchema = z.object({
  localId: z.string().min(1),
  idempotencyKey: z.uuid(),
  pet: NewPet,
  createdAt: z.number(),
  updatedAt: z.number(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int().nonnegative(),
  lastError: AppError.nullable(),
  serverId: Int64.nullable(),
  nextAttemptAt: z.number().nullable(),
  failures: z.number().int().nonnegative(),
  doubtSince: z.number().nullable(),
  check: z.object({ candidates: z.array(Animal), complete: z.boolean(), at: z.number() }).nullable(),
  notOurs: z.array(Int64),
  seq: z.number().int(),
});

/** Thrown by `enqueue` and `edit` when the pet is not a valid creation payload. */
export class InvalidPetError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super(issues.map((issue) => issue.message).join('; '));
    this.name = 'InvalidPetError';
  }
}

/** Thrown when an operation names an entry that does not exist or is in the wrong state. */
export class OutboxStateError extends Error {
  override name = 'OutboxStateError';
}

export type Quarantined = Pick<QuarantinedRow, 'id' | 'raw' | 'reason' | 'at'>;

export function toEntry(row: OutboxRow): OutboxEntry {
  const { seq: _seq, ...entry } = row;
  return entry;
}

export function parsePet(pet: NewPet): NewPet {
  const parsed = NewPet.safeParse(pet);
  if (!parsed.success) throw new InvalidPetError(parsed.error.issues);
  return parsed.data;
}
