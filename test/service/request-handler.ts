/**
 * One request, start to end: body → rate limit → auth → route → validation → latency → fault →
 * operation → reply, with the rate-limit headers on every response and one log line per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { bearerKey, keyHash, unauthorizedMessage } from './auth';
import type { FaultKind } from './faults';
import { parseIdempotencyKey } from './idempotency';
import { errorReply, readBody, splitTarget, type Reply } from './http-io';
import { PLANS, type Plan } from './plans';
import type { RateLimitHeaders, RateLimiter } from './rate-limits';
import type { RequestLog, RequestLogLine } from './request-log';
import { matchRoute, prepareOperation, type Operation, type OperationContext } from './routes';

export interface HandlerContext extends OperationContext {
  keys: Map<string, Plan>;
  limiter: RateLimiter;
  log: RequestLog;
  pickFault(): FaultKind | null;
  pickLatency(): number;
  /** Called once an operation is validated (and its Idempotency-Key claimed), before latency and faults. */
  onPrepared(method: string, path: string): void;
  /** When the service is done with a request (answered, reset, stalled and closed, or dropped). */
  onHandled(): void;
}

/** What is known about a request so far, for its log line. */
class Exchange {
  readonly started = performance.now();
  readonly line: RequestLogLine;
  finished = false;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    now: number,
  ) {
    const { path } = splitTarget(req.url ?? '/');
    this.line = {
      time: new Date(now).toISOString(),
      keyHash: null,
      client: req.socket.remoteAddress ?? 'unknown',
      method: req.method ?? 'UNKNOWN',
      path: req.url ?? path,
      status: null,
      rateLimitLimit: null,
      rateLimitRemaining: null,
      rateLimitReset: null,
      retryAfter: null,
      idempotencyKey: null,
      latencyMs: 0,
      toldToWait: false,
      fault: null,
      outcome: 'response',
      createdId: null,
    };
  }

  rate(headers: RateLimitHeaders): void {
    this.line.rateLimitLimit = headers.limit;
    this.line.rateLimitRemaining = headers.remaining;
    this.line.rateLimitReset = headers.reset;
  }

  finish(log: RequestLog, outcome: RequestLogLine['outcome'], status: number | null): void {
    if (this.finished) return;
    this.finished = true;
    this.line.outcome = outcome;
    this.line.status = status;
    this.line.latencyMs = Math.round((performance.now() - this.started) * 100) / 100;
    log.write(this.line);
  }
}

function send(ctx: HandlerContext, exchange: Exchange, reply: Reply): void {
  const { res, line } = exchange;
  const retryAfter = reply.headers?.['Retry-After'];
  line.retryAfter = retryAfter === undefined ? null : Number(retryAfter);
  exchange.finish(ctx.log, 'response', reply.status);
  if (res.destroyed || res.headersSent) return;
  res.writeHead(reply.status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(reply.body),
    'Cache-Control': 'no-store',
    ...(line.rateLimitLimit === null
      ? {}
      : {
          'X-RateLimit-Limit': String(line.rateLimitLimit),
          'X-RateLimit-Remaining': String(line.rateLimitRemaining),
          'X-RateLimit-Reset': String(line.rateLimitReset),
        }),
    ...(reply.close ? { Connection: 'close' } : {}),
    ...reply.headers,
  });
  res.end(reply.body);
}

function reset(ctx: HandlerContext, exchange: Exchange): void {
  exchange.finish(ctx.log, 'reset', null);
  exchange.req.socket.resetAndDestroy();
}

export function createRequestHandler(ctx: HandlerContext) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const exchange = new Exchange(req, res, ctx.now());
    handle(ctx, exchange)
      .catch((error: unknown) => {
        if (!res.headersSent && !res.destroyed) send(ctx, exchange, errorReply(500, 'internal_error', String(error)));
      })
      .finally(() => ctx.onHandled());
  };
}

async function handle(ctx: HandlerContext, exchange: Exchange): Promise<void> {
  const { req, line } = exchange;
  const body = await readBody(req);
  const header = req.headers.authorization;
  const key = bearerKey(header);
  const plan = key === null ? undefined : ctx.keys.get(key);
  const scope = key !== null && plan ? keyHash(key) : null;
  line.keyHash = scope;
  // named before the limiter decides, so that a refused creation's line says whose it was
  const idempotencyKey = req.headers['idempotency-key'];
  line.idempotencyKey =
    typeof idempotencyKey === 'string' && req.method === 'POST'
      ? (parseIdempotencyKey(idempotencyKey) ?? idempotencyKey)
      : null;
  const subject = scope ? `key:${scope}` : `ip:${line.client}`;
  const decision = ctx.limiter.check(subject, plan ?? PLANS.free, ctx.now());
  exchange.rate(decision.headers);
  line.toldToWait = decision.toldToWait;
  if (body.aborted) return exchange.finish(ctx.log, 'client-closed', null);
  if (decision.kind !== 'allowed') {
    const headers = { 'Retry-After': String(decision.retryAfterSeconds) };
    if (decision.kind === 'rate_limited') {
      const message = 'rate limit exceeded: retry after the time in Retry-After';
      return send(ctx, exchange, errorReply(429, 'rate_limited', message, headers));
    }
    // Requests without a valid key are limited per client address: a ban is the address's, not a key's.
    const [code, message] = scope
      ? ['key_banned', 'key banned for sending requests while told to wait']
      : ['address_banned', 'this address is banned for sending requests without a valid key while told to wait'];
    return send(ctx, exchange, errorReply(429, code, message, headers));
  }
  if (!scope) return send(ctx, exchange, errorReply(401, 'unauthorized', unauthorizedMessage(header)));
  const { path, query } = splitTarget(req.url ?? '/');
  const routed = matchRoute(req.method ?? '', path);
  if (!routed) return send(ctx, exchange, errorReply(404, 'not_found', `no such path: ${path}`));
  if (!routed.allowed) {
    const reply = errorReply(405, 'method_not_allowed', `${req.method} is not allowed on ${path}`);
    return send(ctx, exchange, { ...reply, headers: { Allow: routed.allow } });
  }
  if (body.tooLarge) {
    const reply = errorReply(413, 'payload_too_large', 'request body is over 64 KiB');
    return send(ctx, exchange, { ...reply, close: true });
  }
  const prepared = prepareOperation(routed.route, { req, query, body: body.text, scope }, ctx);
  if ('reply' in prepared) return send(ctx, exchange, prepared.reply);
  ctx.onPrepared(line.method, path);
  await runOperation(ctx, exchange, prepared.operation);
}

async function runOperation(ctx: HandlerContext, exchange: Exchange, operation: Operation): Promise<void> {
  const { req, res, line } = exchange;
  const latency = ctx.pickLatency();
  if (latency > 0) await delay(latency);
  const fault = ctx.pickFault();
  line.fault = fault;
  if (fault === 'stall') {
    // still in flight (an Idempotency-Key stays claimed) until the client gives up
    req.socket.once('close', () => {
      operation.abandon();
      exchange.finish(ctx.log, 'stalled', null);
    });
    return;
  }
  if (
    fault === '500' ||
    fault === '503' ||
    fault === 'reset-before' ||
    (fault === 'reset-after' && !operation.mutates)
  ) {
    operation.abandon();
    if (fault === '500')
      return send(ctx, exchange, errorReply(500, 'internal_error', 'injected fault: internal error'));
    if (fault === '503') {
      const headers = { 'Retry-After': '1' };
      return send(ctx, exchange, errorReply(503, 'unavailable', 'injected fault: service unavailable', headers));
    }
    return reset(ctx, exchange);
  }
  let reply: Reply;
  try {
    reply = await operation.execute();
  } catch (error) {
    operation.abandon();
    throw error;
  }
  line.createdId = operation.createdId ?? null;
  if (fault === 'reset-after') return reset(ctx, exchange);
  if (res.destroyed) return exchange.finish(ctx.log, 'client-closed', reply.status);
  send(ctx, exchange, reply);
}
