/**
 * One try of one outbox entry (the sync engine decides when): settle a doubt first, then
 * send with the entry's idempotency key, and record the outcome in the outbox.
 * - In doubt (a send may have reached the service unanswered, or the app closed mid-send):
 *   resent only when that is certain to create no second animal; otherwise left to staff
 *   ("check needed"), see reconcile.ts and idempotency-evidence.ts. After a timeout the
 *   service is looked at only once that send has had time to finish there (`SEND_SETTLES_MS`),
 *   and the core answers a send of it before then `settling` (another window gave up on it, or
 *   the core did after this window closed): either way the entry waits, in doubt, until then
 *   (`isSettling`), while the engine goes on with the others. Neither is a failure.
 * - Sent: the animal is the entry's record; an answer naming an animal the app already knew
 *   is a replay, which proves the service keeps keys.
 * - Failed: refused (400) → staff edit or discard it; key trouble → the profile pauses;
 *   anything else → tried again after the backoff (sync-decisions.ts).
 */
import { SEND_SETTLES_MS } from '../shared/app-api/api';
import type { AdoptionApi } from '../shared/app-api/client';
import { type AppError, err } from '../shared/app-api/result';
import { t } from '../language';
import { AnimalCache, type Outbox, type OutboxEntry, type ProfileDb } from '../storage';
import { isIdempotencyAnswer, keysTrusted, readEvidence, recordEvidence } from './idempotency-evidence';
import { knownIdsFor, lookForEntry } from './reconcile';
import { decideAfterSendError, type PausedFor, RETRY_MIN_MS, retryDelay } from './sync-decisions';

export interface SendContext {
  api: Pick<AdoptionApi, 'createPet' | 'listPets'>;
  profileId: string;
  db: ProfileDb;
  outbox: Outbox;
  /** The profile's service address (proof that it keeps keys holds for one address). */
  serviceUrl: string | null;
  /** The wall clock: times stored in the outbox and shown to staff. */
  now: () => number;
  /** The elapsed time since the entry's last write (its `updatedAt`), measured by the engine's monotonic clock. */
  sinceWritten: (entry: OutboxEntry) => number;
  random: () => number;
}

/** What the try means for the profile's progress, and the entry as the try left it (null: gone). */
export interface TryOutcome {
  lastError: AppError | null;
  pausedFor: PausedFor | null;
  entry: OutboxEntry | null;
}

const done = (entry: OutboxEntry | null): TryOutcome => ({ lastError: null, pausedFor: null, entry });

/**
 * A doubt after a timeout is looked into (the service's lists read) only this long after the app
 * gave up (the entry's last write): the service may still store the animal meanwhile.
 */
export { SEND_SETTLES_MS };

/**
 * The entry waits for an earlier send of it to settle at the service (until its `nextAttemptAt`):
 * it is neither looked for in the lists nor sent before. The engine, this module's one caller,
 * reads that wait on its monotonic clock, passes over the entry until then and sends the next
 * (sync-engine.ts).
 */
export function isSettling(entry: OutboxEntry): boolean {
  return entry.lastError?.code === 'settling' && entry.state === 'queued' && entry.nextAttemptAt !== null;
}

interface Step {
  step: 'check' | 'send';
  /** When the doubt about the entry began, or null when its outcome is known. */
  doubtSince: number | null;
  startedAt: number;
}

/** `all` is the outbox as this pass knows it (other entries' records are ruled out as matches). */
export async function tryEntry(ctx: SendContext, entry: OutboxEntry, all: OutboxEntry[]): Promise<TryOutcome> {
  const { api, db, outbox, profileId, serviceUrl } = ctx;
  // An entry found in `sending` was cut off (the app closed mid-send): its outcome is unknown.
  const doubtSince = entry.doubtSince ?? (entry.state === 'sending' ? entry.updatedAt : null);
  const startedAt = ctx.now();
  if (doubtSince !== null && !keysTrusted(await readEvidence(db, serviceUrl), doubtSince, startedAt)) {
    // The app gave up waiting, not the service: a list read while that send may still be under
    // way there proves nothing. Measured in elapsed time: a clock set forward must not cut it.
    const settlesIn = SEND_SETTLES_MS - ctx.sinceWritten(entry);
    if (entry.lastError?.code === 'timeout' && settlesIn > 0) {
      const waiting = err('settling', t('sync.settling'), { retryAfterMs: settlesIn, notSent: true });
      return done(await outbox.waitInDoubt(entry.localId, startedAt + settlesIn, doubtSince, waiting.error));
    }
    const known = knownIdsFor(entry, await new AnimalCache(db).all(), all);
    const found = await lookForEntry(api, profileId, entry.animal, known);
    if (!found.ok) return failed(ctx, entry, found.error, { step: 'check', doubtSince, startedAt });
    if (found.data.kind === 'check') {
      const { candidates, complete } = found.data;
      return done(await outbox.markCheckNeeded(entry.localId, { candidates, complete, at: ctx.now() }));
    }
  }
  // Staff may have discarded it since the pass read the outbox: then it is not sent.
  const sending = await outbox.markSending(entry.localId);
  if (!sending) return done(null);
  const result = await api.createPet({ profileId, animal: entry.animal, idempotencyKey: entry.idempotencyKey });
  if (result.ok) {
    const { animal, answeredBefore } = result.data;
    // The core's own answer to an earlier send of it is no replay by the service: proves nothing.
    const replayed =
      !answeredBefore && (entry.notOurs.includes(animal.id) || (await new AnimalCache(db).read(animal.id)) !== null);
    if (replayed) await recordEvidence(db, serviceUrl, 'a replayed creation', ctx.now());
    return done(await outbox.markSent(entry.localId, animal));
  }
  if (result.error.code === 'settling') {
    // The core gave up waiting on an earlier send of it (this window's, or one closed since) and
    // the service may still store it: it waits, in doubt, and is looked for once that has settled.
    // Not a failure, and nothing about whether the service is reachable (it was not asked).
    const waitMs = Math.min(Math.max(result.error.retryAfterMs ?? SEND_SETTLES_MS, RETRY_MIN_MS), SEND_SETTLES_MS);
    const until = startedAt + waitMs;
    return done(await outbox.waitInDoubt(entry.localId, until, doubtSince ?? startedAt, result.error));
  }
  if (isIdempotencyAnswer(result.error)) {
    await recordEvidence(db, serviceUrl, `an idempotency answer (${result.error.status})`, ctx.now());
  }
  return failed(ctx, entry, result.error, { step: 'send', doubtSince, startedAt });
}

/**
 * Records a failed step. A failed check (its list failed) is always retried: it says
 * nothing about the entry; a refused send needs staff. A doubt lasts until the entry is
 * confirmed or answered by staff; a send whose outcome is unknown opens one.
 */
async function failed(ctx: SendContext, entry: OutboxEntry, error: AppError, during: Step): Promise<TryOutcome> {
  const { outbox } = ctx;
  const failures = entry.failures + 1;
  const decision = decideAfterSendError(error, failures, ctx.random);
  const now = ctx.now();
  const opened = during.step === 'send' && decision.kind === 'retry' && decision.unknownOutcome;
  const doubt = during.doubtSince ?? (opened ? during.startedAt : null);
  if (decision.kind === 'pause') {
    const paused = await outbox.markRetry(entry.localId, error, now, doubt);
    return { lastError: error, pausedFor: decision.reason, entry: paused };
  }
  if (decision.kind === 'needs_attention' && during.step === 'send') {
    return { lastError: error, pausedFor: null, entry: await outbox.markNeedsAttention(entry.localId, error) };
  }
  const delayMs = decision.kind === 'retry' ? decision.delayMs : retryDelay(failures, ctx.random);
  const retried = await outbox.markRetry(entry.localId, error, now + delayMs, doubt);
  return { lastError: error, pausedFor: null, entry: retried };
}
