/**
 * The outbox's stored row: its zod schema, the one declaration of its type (derived from the
 * schema), its errors, and small conversions shared by its readers. A row read from IndexedDB
 * is parsed with `OutboxRowSchema` (a trust boundary: another version of the app, or a hand,
 * may have written it); a row the app writes is built from already-parsed values.
 */
import type { IndexableType } from 'dexie';
import { Animal, Int64, NewAnimal } from '../shared/records/animal';
import { AppError } from '../shared/app-api/result';
import { z } from '../shared/basics/zod';

export const OUTBOX_STATES = ['queued', 'sending', 'sent', 'needs_attention', 'check_needed'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** What staff are asked about an entry in `check_needed` (see src/sync/reconcile.ts). */
export const OutboxCheckSchema = z.object({
  /** Animals on the service that match the entry and may be someone else's, newest id first. */
  candidates: z.array(Animal),
  /** False when a list came back full, so a match may hide beyond what the service returned. */
  complete: z.boolean(),
  /** When the service was looked at (local epoch ms). */
  at: z.number(),
});
export type OutboxCheck = z.infer<typeof OutboxCheckSchema>;

export const OutboxEntrySchema = z.object({
  localId: z.string().check(z.minLength(1)),
  idempotencyKey: z.uuid(),
  animal: NewAnimal,
  createdAt: z.number(),
  updatedAt: z.number(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.int().check(z.nonnegative()),
  lastError: z.nullable(AppError),
  serverId: z.nullable(Int64),
  nextAttemptAt: z.nullable(z.number()),
  /** Failed tries (sends or checks) in a row; the wait before the next one grows with it. */
  failures: z.int().check(z.nonnegative()),
  /** When a send first may have reached the service without an answer; null while the outcome is known. */
  doubtSince: z.nullable(z.number()),
  /** While `check_needed`: what the app found on the service. */
  check: z.nullable(OutboxCheckSchema),
  /** Ids of service animals staff said are not this entry ("send mine"). */
  notOurs: z.array(Int64),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/** An outbox entry as stored: with its position in creation order. */
export const OutboxRowSchema = z.extend(OutboxEntrySchema, { seq: z.int() });
export type OutboxRow = z.infer<typeof OutboxRowSchema>;

/** Thrown when an operation names an entry that does not exist or is in the wrong state. */
export class OutboxStateError extends Error {
  override name = 'OutboxStateError';
}

/** A new entry as staff entered it: queued, its own idempotency key, nothing tried yet. */
export function newOutboxEntry(animal: NewAnimal, now: number): OutboxEntry {
  return {
    localId: crypto.randomUUID(),
    idempotencyKey: crypto.randomUUID(),
    animal,
    createdAt: now,
    updatedAt: now,
    state: 'queued',
    attempts: 0,
    lastError: null,
    serverId: null,
    nextAttemptAt: null,
    failures: 0,
    doubtSince: null,
    check: null,
    notOurs: [],
  };
}

/** An entry as a window follows it (the Add form): still unknown to this window, in the outbox, or gone (discarded, pruned). */
export type EntryLookup = { kind: 'pending' } | { kind: 'found'; entry: OutboxEntry } | { kind: 'gone' };

export function toEntry(row: OutboxRow): OutboxEntry {
  const { seq: _seq, ...entry } = row;
  return entry;
}

/** A stored row that fails the schema (it cannot be read): its key, the row as read, and why it fails. */
export interface UnreadableRow {
  key: IndexableType;
  raw: unknown;
  reason: string;
}

/** The outbox as read: its valid entries in creation order, and the rows that cannot be read. */
export interface OutboxRead {
  entries: OutboxEntry[];
  unreadable: UnreadableRow[];
}

/** The primary key of a stored row (`localId`, the table's key path). */
export function keyOf(raw: unknown): IndexableType {
  return (raw as { localId: IndexableType }).localId;
}
