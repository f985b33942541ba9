/**
 * The local Animal Adoption Service (interface.md): `startService(options)` starts it over real
 * HTTP and returns its base URL (ending in `/v1`) and `stop()`. See docs/local-service.md.
 */
import { EventEmitter, once } from 'node:events';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { createFaultPicker, createLatencyPicker } from './faults';
import { IdempotencyRecords } from './idempotency';
import { resolveOptions, type ResolvedOptions, type ServiceOptions } from './options';
import { loadDataFile, removeStaleTempFiles, SaveQueue, writeDataFile, type ServiceData } from './persistence';
import { PLANS } from './plans';
import { RateLimiter, type RateLimitHeaders } from './rate-limits';
import { createRequestHandler } from './request-handler';
import { RequestLog } from './request-log';
import { BASE_PATH } from './routes';
import { seedAnimals } from './seed-data';
import { AnimalStore } from './store';

export { PLANS, parsePlan, type Plan } from './plans';
export { readRequestLog, type RequestLogLine } from './request-log';
export { loadDataFile, DataFileError, type ServiceData } from './persistence';
export type { ServiceOptions } from './options';
export { DEPRECATED_AT_SECONDS, SUNSET_HTTP_DATE, SUNSET_MS } from './routes';

export interface RunningService {
  /** Base URL, ending in `/v1`. */
  url: string;
  host: string;
  port: number;
  logFile?: string;
  dataFile?: string;
  /**
   * `line` (a RequestLogLine, whether or not `--log` is set) when a request is finished, and
   * `prepared` ({ method, path }) when an operation passed validation and is about to run.
   */
  events: EventEmitter;
  /** How many animals the store holds. */
  animalCount(): number;
  /** Closes the server and every connection (stalled ones too), after pending saves. */
  stop(): Promise<void>;
}

async function loadState(options: ResolvedOptions): Promise<ServiceData> {
  const empty: ServiceData = { nextId: options.idStart, animals: [], idempotency: [] };
  if (!options.dataFile) return empty;
  await removeStaleTempFiles(options.dataFile);
  return (await loadDataFile(options.dataFile)) ?? empty;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The raw answer to a request Node's parser refused (counted against the client address). */
function malformedRequestResponse(error: NodeJS.ErrnoException, rate: RateLimitHeaders): string {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const body = JSON.stringify({ code: 'bad_request', message: `malformed HTTP request (${error.code})`, status });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-RateLimit-Limit: ${rate.limit}`,
    `X-RateLimit-Remaining: ${rate.remaining}`,
    `X-RateLimit-Reset: ${rate.reset}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

export async function startService(input: ServiceOptions = {}): Promise<RunningService> {
  const options = resolveOptions(input);
  const now = () => options.clock.now();
  const state = await loadState(options);
  const store = new AnimalStore(state.animals, state.nextId);
  const idempotency = new IdempotencyRecords(state.idempotency, now);
  const snapshot = (): ServiceData => ({
    nextId: store.nextId,
    animals: store.all(),
    idempotency: idempotency.snapshot(),
  });
  if (store.size === 0 && options.seedAnimals > 0) {
    for (const animal of seedAnimals(options.seedAnimals, options.seed)) store.create(animal);
  }
  const dataFile = options.dataFile;
  if (dataFile) await writeDataFile(dataFile, snapshot());
  const saves = dataFile ? new SaveQueue(dataFile, snapshot) : null;

  const server = createServer({
    requestTimeout: options.requestTimeoutMs,
    headersTimeout: options.requestTimeoutMs,
    connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(options.requestTimeoutMs / 4))),
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await listen(server, options.host, options.port);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${hostInUrl}:${port}${BASE_PATH}`;

  const limiter = new RateLimiter(options);
  const events = new EventEmitter();
  const requestLog = new RequestLog(options.logFile, (line) => events.emit('line', line));
  const handler = createRequestHandler({
    store,
    idempotency,
    idempotencyEnabled: options.idempotency,
    persist: () => saves?.save() ?? Promise.resolve(),
    baseUrl: url,
    now,
    keys: options.keys,
    limiter,
    log: requestLog,
    onPrepared: (method, path) => events.emit('prepared', { method, path }),
    onHandled: () => events.emit('handled'),
    pickFault: createFaultPicker(options.faults, options.seed),
    pickLatency: createLatencyPicker(options.latency, options.seed),
  });
  server.on('request', handler);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && !('_httpMessage' in socket && socket._httpMessage)) {
      socket.end(
        malformedRequestResponse(error, limiter.check(`ip:${socket.remoteAddress}`, PLANS.free, now()).headers),
      );
    }
    socket.destroy();
  });

  let stopping: Promise<void> | null = null;
  return {
    url,
    host: options.host,
    port,
    logFile: options.logFile,
    dataFile,
    events,
    animalCount: () => store.size,
    stop: () => {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // A socket's 'close' comes a loop turn after its server's (net.Socket emits it from the
        // handle's close callback; the server counts the socket gone in _destroy), and a stalled
        // request writes its log line on that 'close': wait for each, so that no line is written
        // after stop() resolves (a caller may remove the log's folder then).
        const socketsClosed = [...sockets].map((socket) => once(socket, 'close'));
        for (const socket of sockets) socket.destroy();
        await Promise.all([closed, ...socketsClosed]);
        requestLog.close();
        await saves?.flush();
      })();
      return stopping;
    },
  };
}
