/** The service's options: `startService(options)` and the equivalent `npm run service -- [flags]`. */
import { parseArgs } from 'node:util';
import type { Clock } from '../../src/shared/basics/clock';
import { parseFaults, parseLatency, type FaultRate, type LatencyRange } from './faults';
import { parseKeyFlag, parsePlan, type Plan } from './plans';

export interface ServiceOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** API key → plan (`free`, `pro`, `business`, `enterprise:PER_MINUTE:PER_DAY` or a Plan). */
  keys?: Record<string, string | Plan>;
  minuteMs?: number;
  dayMs?: number;
  banAfter?: number;
  banSeconds?: number;
  dataFile?: string;
  seedAnimals?: number;
  idStart?: string | number | bigint;
  /** false: ignore Idempotency-Key, like a server without support. */
  idempotency?: boolean;
  faults?: string | FaultRate[];
  latencyMs?: string | LatencyRange;
  seed?: number;
  logFile?: string;
  /** Pretend the service clock starts at this instant (ISO); it then runs forward in real time. */
  now?: string;
  /** A clock to use instead (tests); wins over `now`. */
  clock?: Pick<Clock, 'now'>;
  /** Timeout for a client to send a whole request (slow clients), ms. */
  requestTimeoutMs?: number;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  keys: Map<string, Plan>;
  minuteMs: number;
  dayMs: number;
  banAfter: number;
  banMs: number;
  dataFile: string | undefined;
  seedAnimals: number;
  idStart: string;
  idempotency: boolean;
  faults: FaultRate[];
  latency: LatencyRange | undefined;
  seed: number;
  logFile: string | undefined;
  clock: Pick<Clock, 'now'>;
  requestTimeoutMs: number;
}

function wholeNumber(name: string, value: number | undefined, fallback: number, min = 0): number {
  const result = value ?? fallback;
  if (!Number.isSafeInteger(result) || result < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
  return result;
}

function offsetClock(iso: string): Pick<Clock, 'now'> {
  const start = Date.parse(iso);
  if (Number.isNaN(start)) throw new Error(`--now expects an ISO date, got "${iso}"`);
  const offset = start - Date.now();
  return { now: () => Date.now() + offset };
}

export function resolveOptions(options: ServiceOptions): ResolvedOptions {
  const idStart = BigInt(options.idStart ?? 1).toString();
  if (BigInt(idStart) < 1n || BigInt(idStart) > 2n ** 63n - 1n) throw new Error('--id-start must be in 1..2^63-1');
  const keys = new Map<string, Plan>();
  for (const [key, plan] of Object.entries(options.keys ?? {}))
    keys.set(key, typeof plan === 'string' ? parsePlan(plan) : plan);
  return {
    host: options.host ?? '127.0.0.1',
    port: wholeNumber('--port', options.port, 0),
    keys,
    minuteMs: wholeNumber('--minute-ms', options.minuteMs, 60_000, 1),
    dayMs: wholeNumber('--day-ms', options.dayMs, 86_400_000, 1),
    banAfter: wholeNumber('--ban-after', options.banAfter, 10),
    banMs: wholeNumber('--ban-seconds', options.banSeconds, 600) * 1000,
    dataFile: options.dataFile,
    seedAnimals: wholeNumber('--seed-animals', options.seedAnimals, 0),
    idStart,
    idempotency: options.idempotency ?? true,
    faults: typeof options.faults === 'string' ? parseFaults(options.faults) : (options.faults ?? []),
    latency: typeof options.latencyMs === 'string' ? parseLatency(options.latencyMs) : options.latencyMs,
    seed: wholeNumber('--seed', options.seed, 1),
    logFile: options.logFile,
    clock: options.clock ?? (options.now ? offsetClock(options.now) : { now: () => Date.now() }),
    requestTimeoutMs: wholeNumber('requestTimeoutMs', options.requestTimeoutMs, 30_000, 1),
  };
}

export const HELP = `Usage: npm run service -- [flags]

The local Animal Adoption Service (docs/local-service.md). Prints its base URL (ending in /v1) as
the first line of stdout.

  --port N              port to bind; 0 = any free port                     (default 0)
  --host ADDR           address to bind                                     (default 127.0.0.1)
  --key KEY=PLAN        an API key and its plan, repeatable; PLAN is free, pro, business
                        or enterprise:PER_MINUTE:PER_DAY                    (default: no keys)
  --minute-ms MS        length of the per-minute window                     (default 60000)
  --day-ms MS           length of the per-day window                        (default 86400000)
  --ban-after N         requests sent while told to wait before a ban       (default 10)
  --ban-seconds S       length of a ban                                     (default 600)
  --data FILE           persist animals, id counter, idempotency records    (default: memory only)
  --seed-animals N      add N realistic animals to an empty store           (default 0)
  --id-start N          first id assigned                                   (default 1)
  --no-idempotency      ignore Idempotency-Key, like a server without support
  --faults SPEC         e.g. 500:0.1,503:0.05,reset-before:0.05,reset-after:0.05,stall:0.02
  --latency-ms MIN..MAX added latency per operation                         (default none)
  --seed N              seed of faults, latency and seed animals            (default 1)
  --log FILE            one JSON line per request                           (default: no log)
  --now ISO             pretend clock start (deprecation/sunset, windows)   (default: real clock)
  --help                this text
`;

/** Parses CLI flags into options; returns null for --help. Throws on an unknown or bad flag. */
export function parseCliArgs(argv: string[]): ServiceOptions | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      key: { type: 'string', multiple: true },
      'minute-ms': { type: 'string' },
      'day-ms': { type: 'string' },
      'ban-after': { type: 'string' },
      'ban-seconds': { type: 'string' },
      data: { type: 'string' },
      'seed-animals': { type: 'string' },
      'id-start': { type: 'string' },
      'no-idempotency': { type: 'boolean' },
      faults: { type: 'string' },
      'latency-ms': { type: 'string' },
      seed: { type: 'string' },
      log: { type: 'string' },
      now: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return null;
  const num = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    if (!/^\d+$/.test(text)) throw new Error(`--${name} expects a whole number, got "${text}"`);
    return Number(text);
  };
  const idStart = values['id-start'];
  if (idStart !== undefined && !/^\d+$/.test(idStart)) throw new Error(`--id-start expects a whole number`);
  return {
    host: values.host,
    port: num('port', values.port),
    keys: Object.fromEntries((values.key ?? []).map(parseKeyFlag)),
    minuteMs: num('minute-ms', values['minute-ms']),
    dayMs: num('day-ms', values['day-ms']),
    banAfter: num('ban-after', values['ban-after']),
    banSeconds: num('ban-seconds', values['ban-seconds']),
    dataFile: values.data,
    seedAnimals: num('seed-animals', values['seed-animals']),
    idStart,
    idempotency: !values['no-idempotency'],
    faults: values.faults,
    latencyMs: values['latency-ms'],
    seed: num('seed', values.seed),
    logFile: values.log,
    now: values.now,
  };
}
