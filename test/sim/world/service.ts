/**
 * The Animal Adoption Service of the simulation, in-process: the local service's own parts
 * (test/service: its routes and validation, its animal store, its Idempotency-Key records and
 * its rate limiter with the plans of interface.md) behind a `fetch` for each computer, on the
 * loop's clock. Around them, what the network and the service's moods do, from the day's plan:
 * - up: answers after a latency; slow: after a long one (beyond the app's 15 s headers timeout,
 *   and the creation itself may happen after the app gave up);
 * - down: the connection is refused (nothing reaches the service: provably not sent);
 * - refusing: every request answered 429 or 503, with `Retry-After` and rate headers or bare
 *   (a gateway's answer);
 * - failing: 500 before doing anything; losing: the work is done, the answer never comes back
 *   (the connection is reset after the creation);
 * - a gateway day hides the rate headers; the service honours `Idempotency-Key` or ignores it.
 * Every creation is kept with the `Idempotency-Key` the request carried, so the checks can tell
 * which entry of which computer it came from.
 */
import type { Animal } from '../../../src/shared/records/animal';
import { bearerKey, keyHash } from '../../service/auth';
import { errorReply, type Reply } from '../../service/http-io';
import { IdempotencyRecords } from '../../service/idempotency';
import type { Plan } from '../../service/plans';
import { RateLimiter } from '../../service/rate-limits';
import { matchRoute, prepareOperation } from '../../service/routes';
import { AnimalStore } from '../../service/store';
import type { Owner, SimLoop } from './loop';
import type { Rng } from './rng';

export type ServiceMood =
  | { kind: 'up' }
  | { kind: 'slow'; ms: number }
  | { kind: 'down' }
  | { kind: 'refusing'; status: 429 | 503; headers: boolean }
  | { kind: 'failing' }
  | { kind: 'losing' };

export interface Creation {
  animal: Animal;
  /** The `Idempotency-Key` header the creating request carried (null: none). */
  key: string | null;
  computer: string;
  at: number;
}

export interface ServiceOptions {
  apiKey: string;
  honoursKeys: boolean;
  /** A gateway in front: no rate headers reach the app. */
  gateway: boolean;
  plan: Plan;
}

const BASE_PATH = '/v1';
export const SERVICE_ORIGIN = 'https://adoption.sim.example';
export const SERVICE_URL = `${SERVICE_ORIGIN}${BASE_PATH}`;

function networkError(code: string, message: string): TypeError {
  const cause = Object.assign(new Error(message), { code });
  return new TypeError('fetch failed', { cause });
}

/** A promise that never settles: what a dead process's call waits for. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

export class SimService {
  mood: ServiceMood = { kind: 'up' };
  readonly creations: Creation[] = [];
  /** Requests that reached the service (for the figures). */
  requests = 0;
  /** Told of each request's fate, for the day's log. */
  trace: (line: string) => void = () => {};
  readonly #store = new AnimalStore([], '5001');
  readonly #idempotency: IdempotencyRecords;
  readonly #limiter = new RateLimiter({ minuteMs: 60_000, dayMs: 86_400_000, banAfter: 10, banMs: 120_000 });
  readonly #byId = new Map<string, Creation>();

  constructor(
    private readonly loop: SimLoop,
    private readonly rng: Rng,
    readonly options: ServiceOptions,
  ) {
    this.#idempotency = new IdempotencyRecords([], () => loop.serviceNow());
  }

  /** The creation that made the animal with this id, or undefined. */
  creationOf(id: string): Creation | undefined {
    return this.#byId.get(id);
  }

  /** The `fetch` of one run of a computer's core: once `owner` is dead, nothing it sent is answered. */
  fetchFor(computer: string, owner: Owner): typeof fetch {
    return (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (owner.dead) return never();
      const url = new URL(String(input));
      const method = (init.method ?? 'GET').toUpperCase();
      const headers = new Headers(init.headers);
      const body = typeof init.body === 'string' ? init.body : '';
      const signal = init.signal ?? null;
      const mood = this.mood;
      const latency =
        mood.kind === 'slow'
          ? this.rng.int(Math.floor(mood.ms / 2), mood.ms)
          : this.rng.int(5, mood.kind === 'down' ? 40 : 400);
      // The request reaches the service part-way through (a slow service may act after the app gave up).
      const arrival = mood.kind === 'down' ? null : this.rng.int(0, latency);
      let reply: Reply | 'reset' | null = null;
      const label = `${computer} ${method} ${url.pathname}${url.search}`;

      return new Promise<Response>((resolve, reject) => {
        let settled = false;
        const finish = (outcome: () => void) => {
          if (settled || owner.dead) return;
          settled = true;
          outcome();
        };
        const onAbort = () =>
          finish(() => {
            this.trace(`${label}: the app gave up waiting`);
            reject(signal?.reason ?? new Error('aborted'));
          });
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        if (arrival !== null) {
          this.loop.setTimeout(() => {
            this.loop.deliver(`${label} reaches the service`, () => {
              void this.#handle(computer, method, url, headers, body, mood).then((r) => {
                reply = r;
                this.trace(
                  `${label} reached the service: ${r === 'reset' ? 'done, its answer will be lost' : r.status}`,
                );
              });
            });
          }, arrival);
        }
        this.loop.setTimeout(
          () => {
            this.loop.deliver(`${label} answered`, () => {
              signal?.removeEventListener('abort', onAbort);
              if (mood.kind === 'down') {
                return finish(() => reject(networkError('ECONNREFUSED', 'connect ECONNREFUSED')));
              }
              // The arrival is always delivered before the answer (its timer is earlier or the same and
              // was set first); `reply` null means the request never got there.
              const answer: Reply | 'reset' | null = reply;
              if (answer === null || answer === 'reset') {
                return finish(() => reject(networkError('ECONNRESET', 'socket hang up')));
              }
              finish(() => resolve(this.#response(answer)));
            });
          },
          Math.max(latency, (arrival ?? 0) + 1),
        );
      });
    }) as typeof fetch;
  }

  #response(reply: Reply): Response {
    const headers = new Headers({ 'Content-Type': 'application/json', ...reply.headers });
    headers.set('Date', new Date(this.loop.serviceNow()).toUTCString());
    if (this.options.gateway) {
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After'])
        headers.delete(name);
    }
    return new Response(reply.status === 204 ? null : reply.body, { status: reply.status, headers });
  }

  async #handle(
    computer: string,
    method: string,
    url: URL,
    headers: Headers,
    body: string,
    mood: ServiceMood,
  ): Promise<Reply | 'reset'> {
    this.requests += 1;
    const now = this.loop.serviceNow();
    const key = bearerKey(headers.get('authorization') ?? undefined);
    if (key !== this.options.apiKey) return errorReply(401, 'unauthorized', 'unknown API key');
    if (mood.kind === 'refusing') {
      const extra: Record<string, string> = mood.headers
        ? {
            'Retry-After': String(this.rng.int(1, 30)),
            'X-RateLimit-Limit': String(this.options.plan.perMinute),
            'X-RateLimit-Remaining': '0',
            'X-RateLimit-Reset': String(Math.ceil(now / 1000) + 30),
          }
        : {};
      const reply = errorReply(mood.status, mood.status === 429 ? 'rate_limited' : 'unavailable', 'try later', extra);
      return mood.headers ? reply : { ...reply, headers: {} };
    }
    const decision = this.#limiter.check(keyHash(key), this.options.plan, now);
    const rateHeaders = {
      'X-RateLimit-Limit': String(decision.headers.limit),
      'X-RateLimit-Remaining': String(decision.headers.remaining),
      'X-RateLimit-Reset': String(decision.headers.reset),
    };
    if (decision.kind !== 'allowed') {
      return errorReply(429, decision.kind, 'rate limit exceeded', {
        ...rateHeaders,
        'Retry-After': String(decision.retryAfterSeconds),
      });
    }
    if (mood.kind === 'failing') return errorReply(500, 'internal', 'something went wrong', rateHeaders);
    const routed = matchRoute(method, url.pathname);
    if (!routed) return errorReply(404, 'not_found', 'no such path', rateHeaders);
    if (!routed.allowed) return errorReply(405, 'method_not_allowed', 'method not allowed', rateHeaders);
    const requestHeaders: Record<string, string> = {};
    headers.forEach((value, name) => (requestHeaders[name] = value));
    const prepared = prepareOperation(
      routed.route,
      {
        req: { method, headers: requestHeaders } as never,
        query: url.searchParams,
        body,
        scope: keyHash(key),
      },
      {
        store: this.#store,
        idempotency: this.#idempotency,
        idempotencyEnabled: this.options.honoursKeys,
        persist: async () => {},
        baseUrl: SERVICE_URL,
        now: () => this.loop.serviceNow(),
      },
    );
    let reply: Reply;
    if ('reply' in prepared) reply = prepared.reply;
    else {
      const operation = prepared.operation;
      reply = await operation.execute();
      if (operation.createdId !== undefined) {
        const animal = this.#store.get(operation.createdId)!;
        const creation: Creation = {
          animal: { ...animal },
          key: headers.get('idempotency-key'),
          computer,
          at: now,
        };
        this.creations.push(creation);
        this.#byId.set(animal.id, creation);
      }
    }
    reply = { ...reply, headers: { ...rateHeaders, ...reply.headers } };
    if (mood.kind === 'losing') return 'reset';
    return reply;
  }
}
