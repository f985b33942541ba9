/**
 * Idempotency-Key on `POST /pets` (IETF httpapi draft): records per (API key, Idempotency-Key),
 * kept 24 hours. A record is "in flight" from the first request until its creation is stored.
 */
import { createHash } from 'node:crypto';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  body: string;
}

export interface IdempotencyRecord {
  /** The key hash of the API key the record belongs to. */
  scope: string;
  key: string;
  fingerprint: string;
  createdAt: number;
  response: StoredResponse;
}

export type IdempotencyLookup =
  | {
      kind: 'new';
      release(): void;
      /** Records the response (persisted with the creation); returns `settle`, to call once it is durable. */
      complete(response: StoredResponse): () => void;
    }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' }
  | { kind: 'replay'; response: StoredResponse };

/** sha256 of the raw body: "the same body" means the same bytes. */
export function bodyFingerprint(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}

/** The key of an `Idempotency-Key` header (an sf-string, quotes optional), or null when unusable. */
export function parseIdempotencyKey(header: string): string | null {
  const text = header.trim();
  const key = text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
  return key.length > 0 && key.length <= 255 && /^[\x20-\x7e]+$/.test(key) && !key.includes('"') ? key : null;
}

export class IdempotencyRecords {
  private readonly done = new Map<string, IdempotencyRecord>();
  private readonly inFlight = new Map<string, string>();
  /** Completed records whose creation is not on disk yet: still "in flight" for a repeat. */
  private readonly unsettled = new Set<string>();

  constructor(
    records: readonly IdempotencyRecord[],
    private readonly now: () => number,
  ) {
    for (const record of records) this.done.set(`${record.scope}\n${record.key}`, record);
  }

  /** Looks a request up; a new one is claimed as in flight until `complete` or `release`. */
  lookup(scope: string, key: string, fingerprint: string): IdempotencyLookup {
    const id = `${scope}\n${key}`;
    const record = this.done.get(id);
    if (record && record.createdAt + IDEMPOTENCY_TTL_MS <= this.now()) this.done.delete(id);
    const current = this.done.get(id);
    if (current && this.unsettled.has(id)) return { kind: 'in_flight' };
    if (current)
      return current.fingerprint === fingerprint
        ? { kind: 'replay', response: current.response }
        : { kind: 'mismatch' };
    if (this.inFlight.has(id)) return { kind: 'in_flight' };
    this.inFlight.set(id, fingerprint);
    return {
      kind: 'new',
      release: () => this.inFlight.delete(id),
      complete: (response) => {
        this.inFlight.delete(id);
        this.done.set(id, { scope, key, fingerprint, createdAt: this.now(), response });
        this.unsettled.add(id);
        return () => this.unsettled.delete(id);
      },
    };
  }

  /** The unexpired records, for persistence. */
  snapshot(): IdempotencyRecord[] {
    const cutoff = this.now() - IDEMPOTENCY_TTL_MS;
    return [...this.done.values()].filter((record) => record.createdAt > cutoff);
  }
}
