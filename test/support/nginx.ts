/**
 * A real nginx (Debian's package, /usr/sbin/nginx) as the gateway in front of a service, for
 * the reliability tests, the e2e tests and the benchmarks: `limit_req` per API key, answering
 * a refusal the way a gateway no one here wrote does (a bare 429, a bare 503, or a 429 with
 * `Retry-After`) and hiding the service's `X-RateLimit-*` headers, as real gateways often do.
 *
 * Each gateway runs in the foreground as a child process with its own prefix folder (config,
 * pid file, temp paths, logs) on a free loopback port, and is stopped by its pid. The system's
 * nginx (its config, /var/log/nginx, /run/nginx.pid) is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export const NGINX = process.env.NGINX_BINARY ?? '/usr/sbin/nginx';

/** How the gateway refuses a request over its rate. */
export type GatewayMode = '429' | '503' | '429-retry-after';
export const GATEWAY_MODES: readonly GatewayMode[] = ['429', '503', '429-retry-after'];

export interface GatewayOptions {
  /** The service's base URL (ending in `/v1`); the gateway serves the same path. */
  upstream: string;
  mode: GatewayMode;
  /** nginx rate, e.g. `1r/s` or `30r/m` (default `1r/s`). */
  rate?: string;
  /** `limit_req` burst (default 3; 0: none). */
  burst?: number;
  /** `nodelay`: a burst is served at once rather than delayed (default true). */
  nodelay?: boolean;
  /** `Retry-After` of the `429-retry-after` mode, seconds (default 30). */
  retryAfterSeconds?: number;
  /** Hide `X-RateLimit-*` of the service (default true). */
  hideRateHeaders?: boolean;
}

/** One line of the gateway's access log. */
export interface GatewayLogLine {
  /** Local epoch ms the request was logged (when its response was sent). */
  at: number;
  /** Local epoch ms nginx read the request's first byte (`$msec` − `$request_time`). */
  startedAt: number;
  status: number;
  method: string;
  uri: string;
}

export interface RunningGateway {
  /** The gateway's base URL, ending in `/v1` like the service's. */
  url: string;
  port: number;
  accessLog: string;
  readAccessLog(): Promise<GatewayLogLine[]>;
  stop(): Promise<void>;
}

export function nginxAvailable(): boolean {
  return existsSync(NGINX);
}

/** The nginx config of one gateway (exported for the tests of the helper). */
export function gatewayConfig(prefix: string, port: number, options: GatewayOptions): string {
  const upstream = new URL(options.upstream);
  const basePath = upstream.pathname.replace(/\/$/, '');
  const status = options.mode === '503' ? 503 : 429;
  const burst = options.burst ?? 3;
  const nodelay = (options.nodelay ?? true) ? ' nodelay' : '';
  const retryAfter = options.mode === '429-retry-after' ? String(options.retryAfterSeconds ?? 30) : '';
  const hide = options.hideRateHeaders ?? true;
  const path = (name: string) => join(prefix, name);
  return `daemon off;
worker_processes 1;
pid ${path('nginx.pid')};
error_log ${path('error.log')} notice;
events { worker_connections 512; }
http {
  client_body_temp_path ${path('temp-body')};
  proxy_temp_path ${path('temp-proxy')};
  fastcgi_temp_path ${path('temp-fastcgi')};
  uwsgi_temp_path ${path('temp-uwsgi')};
  scgi_temp_path ${path('temp-scgi')};
  log_format gateway '$msec $request_time $status $request_method $request_uri';
  access_log ${path('access.log')} gateway;
  # one bucket per API key, as an API gateway limits a key wherever it is used from
  limit_req_zone $http_authorization zone=per_key:1m rate=${options.rate ?? '1r/s'};
  # an empty value adds no header: Retry-After only on refusals, and only in that mode
  map $status $gateway_retry_after { ${status} "${retryAfter}"; default ""; }
  server {
    listen 127.0.0.1:${port};
    location = /gateway-ready { access_log off; return 204; }
    location ${basePath}/ {
      limit_req zone=per_key${burst > 0 ? ` burst=${burst}${nodelay}` : ''};
      limit_req_status ${status};
      add_header Retry-After $gateway_retry_after always;
      proxy_pass http://${upstream.host};
${hide ? '      proxy_hide_header X-RateLimit-Limit;\n      proxy_hide_header X-RateLimit-Remaining;\n      proxy_hide_header X-RateLimit-Reset;\n' : ''}    }
  }
}
`;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function waitUntilReady(port: number, child: ChildProcess, errorLog: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const log = await readFile(errorLog, 'utf8').catch(() => '');
  throw new Error(`nginx did not start (exit ${child.exitCode}): ${log.slice(-600)}`);
}

export function parseAccessLog(text: string): GatewayLogLine[] {
  const lines: GatewayLogLine[] = [];
  for (const line of text.split('\n')) {
    const [msec, took, status, method, uri] = line.trim().split(' ');
    if (!msec || !took || !status || !method || !uri) continue;
    const at = Math.round(Number(msec) * 1000);
    lines.push({ at, startedAt: at - Math.round(Number(took) * 1000), status: Number(status), method, uri });
  }
  return lines;
}

/** Starts a gateway in front of `options.upstream`; stop it with `stop()`. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  if (!nginxAvailable()) throw new Error(`nginx is not installed at ${NGINX} (apt-get install -y nginx)`);
  const prefix = await mkdtemp(join(tmpdir(), 'adoption-nginx-'));
  const errorLog = join(prefix, 'error.log');
  const accessLog = join(prefix, 'access.log');
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const conf = join(prefix, 'nginx.conf');
    await writeFile(conf, gatewayConfig(prefix, port, options));
    // -e: the error log from the first line on (else nginx opens its built-in path at start)
    const child = spawn(NGINX, ['-p', prefix, '-c', conf, '-e', errorLog], { stdio: 'ignore' });
    try {
      await waitUntilReady(port, child, errorLog);
    } catch (error) {
      child.kill('SIGKILL');
      await exited(child);
      // another process may have taken the free port in between: try another one
      const log = await readFile(errorLog, 'utf8').catch(() => '');
      if (attempt < 3 && log.includes('Address already in use')) continue;
      await rm(prefix, { recursive: true, force: true });
      throw error;
    }
    const basePath = new URL(options.upstream).pathname.replace(/\/$/, '');
    let stopping: Promise<void> | null = null;
    return {
      url: `http://127.0.0.1:${port}${basePath}`,
      port,
      accessLog,
      readAccessLog: async () => parseAccessLog(await readFile(accessLog, 'utf8').catch(() => '')),
      stop: () => {
        stopping ??= (async () => {
          // SIGQUIT: graceful shutdown of the master (by its pid) and its worker
          child.kill('SIGQUIT');
          // A watchdog, not a wait: stop waits for nginx's exit event; only a master that ignores
          // SIGQUIT for 5 s is killed, so a stuck gateway never outlives its test.
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited(child);
          clearTimeout(timer);
          await rm(prefix, { recursive: true, force: true });
        })();
        return stopping;
      },
    };
  }
}

/** The most requests that reached the gateway within any `spanMs` (default 1 s). */
export function longestBurst(lines: readonly GatewayLogLine[], spanMs = 1000): number {
  const times = lines.map((line) => line.startedAt).sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while ((times[end] ?? 0) - (times[start] ?? 0) >= spanMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}
