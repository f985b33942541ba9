/**
 * The naive client of the drain bench: sends the creations one after another and, after each
 * refusal (429, or 503 as gateways send), backs off exponentially (1 s, 2 s, 4 s… up to 32 s,
 * reset by a success) before trying the same creation again. It ignores `Retry-After` and
 * `X-RateLimit-*`.
 */
import { postPet, sleep, type Creation, type DrainOutcome, type DrainTarget } from './post-pet';

export const NAIVE_BACKOFF_BASE_MS = 1000;
export const NAIVE_BACKOFF_MAX_MS = 32_000;

export async function drainNaive(target: DrainTarget, creations: readonly Creation[]): Promise<DrainOutcome> {
  const outcome: DrainOutcome = { created: 0, failed: 0 };
  let consecutive429 = 0;
  for (const creation of creations) {
    while (!target.signal.aborted) {
      const answer = await postPet(target, creation).catch(() => null);
      if (answer?.status === 429 || answer?.status === 503) {
        consecutive429 += 1;
        await sleep(Math.min(NAIVE_BACKOFF_MAX_MS, NAIVE_BACKOFF_BASE_MS * 2 ** (consecutive429 - 1)), target.signal);
        continue;
      }
      consecutive429 = 0;
      if (answer?.status === 201) outcome.created += 1;
      else outcome.failed += 1;
      break;
    }
    if (target.signal.aborted) break;
  }
  return outcome;
}
