/**
 * The clients of the refresh-storm bench. Each sends 20 creations one after another (as an
 * outbox does) while staff click Refresh (a `GET /pets?limit=20`) during a wait:
 * - naive: a click sends its GET at once; a refused creation backs off 1 s × 2^n;
 * - reactive: one queue, reads before writes (as the app's core did before issue 11); every
 *   request waits for the `Retry-After` last given.
 */
import { postPet, sleep, type Creation, type DrainTarget } from './post-pet';

export interface StormClient {
  /** A Refresh click. */
  refresh(): void;
  /** Sends the creations; resolves with how many were created. */
  drain(creations: readonly Creation[]): Promise<number>;
}

function getList(target: DrainTarget): Promise<Response | null> {
  return fetch(`${target.url}/pets?limit=20`, {
    headers: { Authorization: `Bearer ${target.key}` },
    signal: target.signal,
  })
    .then(async (response) => {
      await response.arrayBuffer();
      return response;
    })
    .catch(() => null);
}

export function naiveStormClient(target: DrainTarget): StormClient {
  return {
    refresh: () => void getList(target),
    async drain(creations) {
      let created = 0;
      let refusals = 0;
      for (const creation of creations) {
        while (!target.signal.aborted) {
          const answer = await postPet(target, creation).catch(() => null);
          if (answer?.status === 429 || answer?.status === 503) {
            refusals += 1;
            await sleep(Math.min(32_000, 1000 * 2 ** (refusals - 1)), target.signal);
            continue;
          }
          refusals = 0;
          if (answer?.status === 201) created += 1;
          break;
        }
      }
      return created;
    },
  };
}

type Task = () => Promise<void>;

export function reactiveStormClient(target: DrainTarget): StormClient {
  let pausedUntil = 0;
  const reads: Task[] = [];
  const writes: Task[] = [];
  let busy = false;
  /** A refusal: everything waits for its Retry-After (1 s without one). */
  const refused = (status: number | undefined, retryAfterMs: number | null): boolean => {
    if (status !== 429 && status !== 503) return false;
    pausedUntil = Math.max(pausedUntil, Date.now() + (retryAfterMs ?? 1000));
    return true;
  };
  async function pump(): Promise<void> {
    if (busy) return;
    busy = true;
    // after the deadline the tasks still run (their fetch fails at once), so no caller waits forever
    for (let task = reads.shift() ?? writes.shift(); task; task = reads.shift() ?? writes.shift()) {
      const delay = pausedUntil - Date.now();
      if (delay > 0) await sleep(delay, target.signal);
      await task();
    }
    busy = false;
  }
  return {
    refresh() {
      reads.push(async () => {
        const response = await getList(target);
        if (response) refused(response.status, retryAfterOf(response));
      });
      void pump();
    },
    async drain(creations) {
      let created = 0;
      for (const creation of creations) {
        for (;;) {
          if (target.signal.aborted) return created;
          const answer = await new Promise<{ status: number; retryAfterMs: number | null } | null>((resolve) => {
            writes.push(async () => resolve(await postPet(target, creation).catch(() => null)));
            void pump();
          });
          if (refused(answer?.status, answer?.retryAfterMs ?? null)) continue;
          if (answer?.status === 201) created += 1;
          break;
        }
      }
      return created;
    },
  };
}

function retryAfterOf(response: Response): number | null {
  const value = Number(response.headers.get('Retry-After'));
  return response.headers.has('Retry-After') && Number.isFinite(value) ? value * 1000 : null;
}
