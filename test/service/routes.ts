/**
 * The routes under `/v1` and their operations. An operation is prepared first (validation,
 * idempotency), then executed after latency and faults, so a fault never hides a 400.
 */
import type { IncomingMessage } from 'node:http';
import { errorReply, jsonReply, type Reply } from './http-io';
import { bodyFingerprint, parseIdempotencyKey, type IdempotencyRecords } from './idempotency';
import type { AnimalStore } from './store';
import { checkListQuery, checkNewPet, checkPetId, isJsonContentType } from './validation';

export const BASE_PATH = '/v1';
/** RFC 9745 `Deprecation` of `GET /pets/{petId}`: 1 January 2025 (our choice; interface.md gives no date). */
export const DEPRECATED_AT_SECONDS = 1735689600;
/** RFC 8594 `Sunset` of `GET /pets/{petId}`, the removal date of interface.md. */
export const SUNSET_MS = Date.UTC(2030, 11, 5);
export const SUNSET_HTTP_DATE = new Date(SUNSET_MS).toUTCString();

export type Route = { name: 'pets' } | { name: 'pet'; petId: string } | { name: 'orders' };

const ALLOWED: Record<Route['name'], string[]> = { pets: ['GET', 'POST'], pet: ['GET'], orders: ['GET'] };

export type Routed = { route: Route; allowed: true } | { route: Route; allowed: false; allow: string } | null;

/** Matches a path (without query); null for an unknown path. */
export function matchRoute(method: string, path: string): Routed {
  let route: Route | null = null;
  if (path === `${BASE_PATH}/pets`) route = { name: 'pets' };
  else if (path === `${BASE_PATH}/store/orders`) route = { name: 'orders' };
  else {
    const segment = /^\/v1\/pets\/([^/]+)$/.exec(path)?.[1];
    if (segment !== undefined) route = { name: 'pet', petId: segment };
  }
  if (!route) return null;
  const allowed = ALLOWED[route.name];
  return allowed.includes(method) ? { route, allowed: true } : { route, allowed: false, allow: allowed.join(', ') };
}

export interface Operation {
  /** Whether executing changes state (a `reset-after` fault then executes before resetting). */
  mutates: boolean;
  execute(): Promise<Reply>;
  /** The operation will not run (a fault, or the client went away first). */
  abandon(): void;
  /** The id this operation created, once executed. */
  createdId?: string;
}

export type Prepared = { reply: Reply } | { operation: Operation };

export interface OperationContext {
  store: AnimalStore;
  idempotency: IdempotencyRecords;
  idempotencyEnabled: boolean;
  /** Resolves when the state after a change is durable (immediately without `--data`). */
  persist(): Promise<void>;
  baseUrl: string;
  now(): number;
}

export interface OperationRequest {
  req: IncomingMessage;
  query: URLSearchParams;
  body: string;
  /** Key hash of the caller, the scope of its idempotency records. */
  scope: string;
}

const done = (reply: Reply): Operation => ({ mutates: false, execute: async () => reply, abandon: () => {} });

export function prepareOperation(route: Route, request: OperationRequest, ctx: OperationContext): Prepared {
  switch (route.name) {
    case 'orders':
      return { operation: done(jsonReply(200, [])) };
    case 'pets':
      return request.req.method === 'POST' ? prepareCreate(request, ctx) : prepareList(request, ctx);
    case 'pet':
      return prepareGet(route.petId, ctx);
  }
}

function prepareList(request: OperationRequest, ctx: OperationContext): Prepared {
  const params = checkListQuery(request.query);
  if (!params.ok) return { reply: params.reply };
  return { operation: done(jsonReply(200, ctx.store.list(params.value.limit, params.value.status))) };
}

function prepareGet(segment: string, ctx: OperationContext): Prepared {
  const headers = {
    Deprecation: `@${DEPRECATED_AT_SECONDS}`,
    Sunset: SUNSET_HTTP_DATE,
    Link: `<${ctx.baseUrl}/pets>; rel="successor-version"`,
  };
  const withHeaders = (reply: Reply): Reply => ({ ...reply, headers: { ...headers, ...reply.headers } });
  if (ctx.now() >= SUNSET_MS) {
    return { reply: withHeaders(errorReply(410, 'gone', `GET /pets/{petId} was removed on ${SUNSET_HTTP_DATE}`)) };
  }
  const petId = checkPetId(segment);
  if (!petId.ok) return { reply: withHeaders(petId.reply) };
  const animal = ctx.store.get(petId.value);
  const reply = animal ? jsonReply(200, animal) : errorReply(404, 'not_found', `no animal with id ${petId.value}`);
  return { operation: done(withHeaders(reply)) };
}

function prepareCreate(request: OperationRequest, ctx: OperationContext): Prepared {
  if (!isJsonContentType(request.req.headers['content-type'])) {
    return { reply: errorReply(415, 'unsupported_media_type', 'POST /pets takes Content-Type: application/json') };
  }
  const checked = checkNewPet(request.body);
  if (!checked.ok) return { reply: checked.reply };
  const header = request.req.headers['idempotency-key'];
  const rawKey = ctx.idempotencyEnabled && typeof header === 'string' ? header : undefined;
  const key = rawKey === undefined ? null : parseIdempotencyKey(rawKey);
  if (rawKey !== undefined && key === null) {
    return { reply: errorReply(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1-255 printable characters') };
  }
  const claim = key === null ? null : ctx.idempotency.lookup(request.scope, key, bodyFingerprint(request.body));
  if (claim?.kind === 'in_flight') {
    return { reply: errorReply(409, 'idempotency_in_flight', 'a request with this Idempotency-Key is in progress') };
  }
  if (claim?.kind === 'mismatch') {
    return { reply: errorReply(422, 'idempotency_key_reused', 'this Idempotency-Key was used with another body') };
  }
  if (claim?.kind === 'replay') {
    const { status, body } = claim.response;
    return { operation: done({ status, body, headers: { 'Idempotent-Replayed': 'true' } }) };
  }
  const operation: Operation = {
    mutates: true,
    abandon: () => claim?.release(),
    execute: async () => {
      const animal = ctx.store.create(checked.value);
      operation.createdId = animal.id;
      const reply = jsonReply(201, animal, { Location: `${ctx.baseUrl}/pets/${animal.id}` });
      const settle = claim?.complete({ status: reply.status, body: reply.body });
      // a repeat sees the key in flight (409) until the creation is durable, then gets the replay
      await ctx.persist().finally(() => settle?.());
      return reply;
    },
  };
  return { operation };
}
