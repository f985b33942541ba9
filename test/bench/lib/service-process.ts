/**
 * The local service in a process of its own (`test/service/cli.ts`), for the benches that must not
 * share a CPU's event loop with it: its first line of stdout is its base URL.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface ServiceProcess {
  url: string;
  /** Ends it (SIGTERM) and waits for its exit, its log then complete; again, it only waits. */
  stop: () => Promise<void>;
}

/** Starts the service with these CLI flags (`npm run service -- --help`) and waits for its address. */
export async function startServiceProcess(flags: readonly string[]): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/service/cli.ts', ...flags], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const [url] = await Promise.race([
    once(createInterface({ input: child.stdout }), 'line') as Promise<[string]>,
    exited.then(([code]) => Promise.reject(new Error(`the service exited (${String(code)}) before its address`))),
  ]);
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
