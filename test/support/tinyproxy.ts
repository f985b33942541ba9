/**
 * A real forward proxy, Debian's tinyproxy (/usr/bin/tinyproxy), as the organisation's proxy for
 * the proxy tests: plain HTTP in forwarding form (`GET http://host/path`) and HTTPS through
 * `CONNECT host:port`, with an optional Basic login (a 407 without it). Each runs in the
 * foreground as a child process with its own config, log and folder, on a free loopback port, and
 * is stopped by its pid. Its log has one `Request (file descriptor N): <request line>` per request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export const TINYPROXY = process.env.TINYPROXY_BINARY ?? '/usr/bin/tinyproxy';

export interface ProxyOptions {
  /** A Basic login the proxy asks for (a 407 without it). */
  login?: { username: string; password: string };
}

export interface RunningProxy {
  /** `127.0.0.1:PORT`. */
  address: string;
  port: number;
  /** The request lines the proxy received, in order (`GET http://…`, `CONNECT host:port`). */
  requests(): Promise<string[]>;
  stop(): Promise<void>;
}

export function tinyproxyAvailable(): boolean {
  return existsSync(TINYPROXY);
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

async function listening(port: number, child: ChildProcess): Promise<boolean> {
  for (let tries = 0; tries < 500 && child.exitCode === null; tries += 1) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return true;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return false;
}

/** Starts a proxy; stop it with `stop()`. */
export async function startProxy(options: ProxyOptions = {}): Promise<RunningProxy> {
  if (!tinyproxyAvailable())
    throw new Error(`tinyproxy is not installed at ${TINYPROXY} (apt-get install -y tinyproxy)`);
  const folder = await mkdtemp(join(tmpdir(), 'adoption-proxy-'));
  const log = join(folder, 'tinyproxy.log');
  for (let attempt = 0; ; attempt += 1) {
    const port = await freePort();
    const config = join(folder, 'tinyproxy.conf');
    const lines = [
      `Port ${port}`,
      'Listen 127.0.0.1',
      'Timeout 30',
      `LogFile "${log}"`,
      'LogLevel Info',
      `PidFile "${join(folder, 'tinyproxy.pid')}"`,
      'MaxClients 50',
      'Allow 127.0.0.1',
      ...(options.login ? [`BasicAuth ${options.login.username} ${options.login.password}`] : []),
    ];
    await writeFile(config, `${lines.join('\n')}\n`);
    // -d: in the foreground, so the child's pid is the proxy's own
    const child = spawn(TINYPROXY, ['-d', '-c', config], { stdio: 'ignore' });
    if (!(await listening(port, child))) {
      child.kill('SIGKILL');
      await exited(child);
      if (attempt < 3) continue;
      const text = await readFile(log, 'utf8').catch(() => '');
      await rm(folder, { recursive: true, force: true });
      throw new Error(`tinyproxy did not start: ${text.slice(-400)}`);
    }
    let stopping: Promise<void> | null = null;
    return {
      address: `127.0.0.1:${port}`,
      port,
      requests: async () =>
        [...(await readFile(log, 'utf8').catch(() => '')).matchAll(/Request \(file descriptor \d+\): (.+)$/gm)].map(
          (match) => (match[1] ?? '').trim(),
        ),
      stop: () => {
        stopping ??= (async () => {
          child.kill('SIGTERM');
          // A watchdog, not a wait: only a proxy that ignores SIGTERM for 5 s is killed.
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          await exited(child);
          clearTimeout(timer);
          await rm(folder, { recursive: true, force: true });
        })();
        return stopping;
      },
    };
  }
}
