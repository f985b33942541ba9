/**
 * The reactive client of the drain bench: four creations in flight at a time; after a refusal
 * (429, or 503 as gateways send) it waits the `Retry-After` it was given, 1 s without one (all
 * four workers pause until then) and sends that creation again. It never looks at `X-RateLimit-Remaining`, so it only learns of the limit
 * by hitting it.
 */
import { postPet, sleep, type Creation, type DrainOutcome, type DrainTarget } from './post-pet';

export const REACTIVE_CONCURRENCY = 4;
/** When a 429 carries no readable Retry-After. */
const FALLBACK_WAIT_MS = 1000;

export async function drainReactive(target: DrainTarget, creations: readonly Creation[]): Promise<DrainOutcome> {
  const outcome: DrainOutcome = { created: 0, failed: 0 };
  const queue = [...creations];
  let pausedUntil = 0;

  async function worker(): Promise<void> {
    while (!target.signal.aborted) {
      const creation = queue.shift();
      if (!creation) return;
      for (;;) {
        const wait = pausedUntil - Date.now();
        if (wait > 0) await sleep(wait, target.signal);
        if (target.signal.aborted) return;
        const answer = await postPet(target, creation).catch(() => null);
        if (answer?.status === 429 || answer?.status === 503) {
          pausedUntil = Math.max(pausedUntil, Date.now() + (answer.retryAfterMs ?? FALLBACK_WAIT_MS));
          continue;
        }
        if (answer?.status === 201) outcome.created += 1;
        else outcome.failed += 1;
        break;
      }
    }
  }

  await Promise.all(Array.from({ length: REACTIVE_CONCURRENCY }, () => worker()));
  return outcome;
}
