/**
 * What the drain bench's comparison clients share: the creations to send and one bare
 * `POST /pets` with `fetch` (the shared JSON codec for the body, an Idempotency-Key per
 * creation), reading back the status and `Retry-After`.
 */
import { randomUUID } from 'node:crypto';
import type { NewAnimal } from '../../../src/shared/records/animal';
import { encodeJson } from '../../../src/shared/records/json-codec';

export interface Creation {
  animal: NewAnimal;
  idempotencyKey: string;
}

export interface DrainTarget {
  /** Base URL ending in /v1. */
  url: string;
  key: string;
  /** Aborts the run (the bench's deadline); the client returns what it finished by then. */
  signal: AbortSignal;
}

export interface DrainOutcome {
  /** Creations answered 201. */
  created: number;
  /** Creations given up (answered neither 201 nor 429). */
  failed: number;
}

/** `count` creations, each with its own Idempotency-Key. */
export function makeCreations(count: number, label: string): Creation[] {
  return Array.from({ length: count }, (_, i) => ({
    animal: { name: `${label} ${i + 1}`, categoryId: String((i % 7) + 1), status: 'available' as const },
    idempotencyKey: randomUUID(),
  }));
}

export interface PostAnswer {
  status: number;
  /** `Retry-After` in ms (delta-seconds), null when absent or unreadable. */
  retryAfterMs: number | null;
}

export async function postPet(target: DrainTarget, creation: Creation): Promise<PostAnswer> {
  const response = await fetch(`${target.url}/pets`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${target.key}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': `"${creation.idempotencyKey}"`,
    },
    body: encodeJson(creation.animal),
    signal: target.signal,
  });
  await response.arrayBuffer();
  const retryAfter = Number(response.headers.get('Retry-After'));
  return {
    status: response.status,
    retryAfterMs: response.headers.has('Retry-After') && Number.isFinite(retryAfter) ? retryAfter * 1000 : null,
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
