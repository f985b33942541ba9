/**
 * A hostile stand-in for the Animal Adoption Service, for reliability tests: node:http on
 * 127.0.0.1:0, one misbehaviour per path prefix (`base('malformed-json')` is
 * `http://127.0.0.1:PORT/malformed-json/v1`). It records every request (time on the
 * injected clock, headers, body) and how its long answers ended (bytes handed to the socket,
 * whether the client closed the connection before the end).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export const SCENARIOS = [
  'malformed-json',
  'wrong-types',
  'wrong-shape',
  'big-ids',
  'huge',
  'huge-declared',
  'trickle-body',
  'trickle-headers',
  'no-rate-headers',
  'rate',
  'html',
  'html-200',
  'redirect',
  'echo-key',
  'record',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface HostileRequest {
  at: number;
  scenario: string;
  method: string;
  /** Path below the scenario prefix, with the query (e.g. `/v1/pets?limit=20`). */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface CannedReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How a long answer (huge body, trickle) ended. */
export interface StreamStats {
  sentBytes: number;
  finished: boolean;
  /** Resolves when the connection closed; `early` when before the whole answer was sent. */
  closed: Promise<{ early: boolean; sentBytes: number }>;
}

export interface HostileServerOptions {
  /** The server's clock for `Date` and recorded times (a test's fake clock). */
  now?: () => number;
  trickleIntervalMs?: number;
  hugeBodyBytes?: number;
  chunkBytes?: number;
}

export interface HostileServer {
  readonly origin: string;
  base(scenario: Scenario): string;
  readonly requests: HostileRequest[];
  requestsTo(scenario: Scenario): HostileRequest[];
  /** What `rate` answers (mutable between requests). */
  rateReply: CannedReply;
  /** Where `redirect` sends the client (an absolute URL prefix; the path is appended). */
  redirectTo: string;
  /** The stats of the latest long answer of each kind. */
  readonly streams: Partial<Record<'huge' | 'huge-declared' | 'trickle-body' | 'trickle-headers', StreamStats>>;
  stop(): Promise<void>;
}

export const BIG_IDS = ['9007199254740993', '9223372036854775807', '18014398509481985'] as const;
const ANIMAL_JSON = '{"id":1,"name":"Rex","categoryId":2,"status":"available"},';

const json = (status: number, body: string, headers: Record<string, string> = {}): CannedReply => ({
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body,
});

function fixedReply(scenario: Scenario, request: IncomingMessage, body: string, key: string): CannedReply | null {
  const path = request.url ?? '/';
  switch (scenario) {
    case 'malformed-json':
      return json(200, '[{"id":1,"name":"Rex","categoryId":2,"sta');
    case 'wrong-types':
      return json(
        200,
        '[{"id":"x1","name":42,"categoryId":null,"status":"lost"},{"id":1.5,"name":"A","categoryId":2}]',
      );
    case 'wrong-shape':
      return json(200, path.includes('/pets/') ? '[]' : '{"pets":[],"total":0}');
    case 'big-ids': {
      if (request.method === 'POST') {
        // echo the creation with a big id, keeping the body's digits as they came
        return json(201, `{"id":${BIG_IDS[0]},${body.replace(/^\s*\{/, '')}`);
      }
      const one = (id: string) => `{"id":${id},"name":"Big ${id}","categoryId":${BIG_IDS[2]},"status":"available"}`;
      const match = /\/pets\/(\d+)/.exec(path);
      return json(200, match?.[1] ? one(match[1]) : `[${BIG_IDS.map(one).join(',')}]`);
    }
    case 'no-rate-headers':
      return json(200, `[${ANIMAL_JSON.slice(0, -1)}]`);
    case 'html':
      return {
        status: 502,
        headers: { 'Content-Type': 'text/html' },
        body: '<html><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>',
      };
    case 'html-200':
      return { status: 200, headers: { 'Content-Type': 'text/html' }, body: '<!doctype html><title>Login</title>' };
    case 'echo-key':
      return json(401, JSON.stringify({ code: 'unauthorized', message: `unknown key ${key} (${key})`, status: 401 }));
    case 'record':
      return json(200, '[]');
    default:
      return null;
  }
}

export async function startHostileServer(options: HostileServerOptions = {}): Promise<HostileServer> {
  const now = options.now ?? (() => Date.now());
  const trickleMs = options.trickleIntervalMs ?? 1000;
  const hugeBytes = options.hugeBodyBytes ?? 50 * 1024 * 1024;
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const requests: HostileRequest[] = [];
  const sockets = new Set<Socket>();
  const intervals = new Set<ReturnType<typeof setInterval>>();
  const streams: HostileServer['streams'] = {};

  function track(kind: keyof HostileServer['streams'], total: number, socket: Socket): StreamStats {
    let resolveClosed: (value: { early: boolean; sentBytes: number }) => void = () => undefined;
    const stats: StreamStats = {
      sentBytes: 0,
      finished: false,
      closed: new Promise((resolve) => (resolveClosed = resolve)),
    };
    socket.once('close', () => resolveClosed({ early: stats.sentBytes < total, sentBytes: stats.sentBytes }));
    streams[kind] = stats;
    return stats;
  }

  function streamHuge(response: ServerResponse, declared: boolean): void {
    const stats = track(declared ? 'huge-declared' : 'huge', hugeBytes, response.socket as Socket);
    const block = Buffer.from(ANIMAL_JSON.repeat(Math.ceil(chunkBytes / ANIMAL_JSON.length)).slice(0, chunkBytes));
    response.writeHead(200, {
      'Content-Type': 'application/json',
      ...(declared ? { 'Content-Length': String(hugeBytes) } : {}),
    });
    const pump = (): void => {
      // generated lazily, one chunk at a time, only as fast as the client reads
      while (stats.sentBytes < hugeBytes && !response.destroyed) {
        const size = Math.min(chunkBytes, hugeBytes - stats.sentBytes);
        stats.sentBytes += size;
        if (!response.write(block.subarray(0, size))) return void response.once('drain', pump);
      }
      if (!response.destroyed) response.end(() => (stats.finished = true));
    };
    pump();
  }

  function trickle(kind: 'trickle-body' | 'trickle-headers', request: IncomingMessage, response: ServerResponse) {
    const text = kind === 'trickle-body' ? '[]' : 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[]';
    const socket = request.socket;
    const stats = track(kind, text.length, socket);
    if (kind === 'trickle-body') {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(text.length) });
      response.flushHeaders();
    }
    const timer = setInterval(() => {
      const byte = text[stats.sentBytes];
      if (byte === undefined || socket.destroyed) return void clearInterval(timer);
      stats.sentBytes += 1;
      if (kind === 'trickle-body') response.write(byte);
      else socket.write(byte);
    }, trickleMs);
    intervals.add(timer);
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const [, prefix = '', rest = '/'] = /^\/([^/]+)(\/.*)?$/.exec(request.url ?? '/') ?? [];
      const scenario = prefix as Scenario;
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ at: now(), scenario, method: request.method ?? '', path: rest, headers: request.headers, body });
      const key = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      response.sendDate = false;
      response.setHeader('Date', new Date(now()).toUTCString());
      if (scenario === 'huge' || scenario === 'huge-declared')
        return streamHuge(response, scenario === 'huge-declared');
      if (scenario === 'trickle-body' || scenario === 'trickle-headers') return trickle(scenario, request, response);
      let reply = fixedReply(scenario, request, body, key);
      if (scenario === 'rate') reply = hostile.rateReply;
      if (scenario === 'redirect')
        reply = { status: 302, headers: { Location: `${hostile.redirectTo}${rest}` }, body: '' };
      reply ??= json(404, '{"code":"not_found","message":"no such scenario","status":404}');
      response.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)) });
      response.end(reply.body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const hostile: HostileServer = {
    origin,
    base: (scenario) => `${origin}/${scenario}/v1`,
    requests,
    requestsTo: (scenario) => requests.filter((r) => r.scenario === scenario),
    rateReply: json(200, '[]'),
    redirectTo: 'http://127.0.0.1:9',
    streams,
    async stop() {
      for (const timer of intervals) clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return hostile;
}
