/**
 * The packaged app as the packaged-app specs start it (test/e2e/packaged/): the executable
 * `ADOPTION_PACKAGED_APP` names (set by the GitHub workflow after `electron-builder --dir`), started
 * with Chromium's `--remote-debugging-port=0` (Playwright's `_electron.launch` needs Node's
 * inspector, which the package's fuses switch off), its output read for "DevTools listening on".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

export function packagedApp(): { executable: string; missing: string | null } {
  const executable = process.env.ADOPTION_PACKAGED_APP ?? '';
  const missing = !executable
    ? 'ADOPTION_PACKAGED_APP is not set (the GitHub workflow sets it after electron-builder --dir)'
    : !existsSync(executable)
      ? `ADOPTION_PACKAGED_APP=${executable} does not exist`
      : null;
  return { executable, missing };
}

/** The app's resources folder: beside the executable, or Contents/Resources in a macOS bundle. */
export function resourcesOf(exe: string): string {
  return process.platform === 'darwin' ? join(dirname(dirname(exe)), 'Resources') : join(dirname(exe), 'resources');
}

/** A copy of the whole packaged app under `folder` (the package under test stays as built); its executable. */
export function copyPackagedApp(executable: string, folder: string): string {
  const root = process.platform === 'darwin' ? dirname(dirname(dirname(executable))) : dirname(executable);
  const copy = join(folder, 'app-copy');
  cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  return join(copy, relative(root, executable));
}

export interface Started {
  process: ChildProcess;
  /** Everything it wrote to stderr and stdout so far. */
  output: () => string;
  /** The DevTools address, or the exit code and signal if it ended first. */
  outcome: Promise<{ devtools: string } | { exit: number | null; signal: NodeJS.Signals | null }>;
}

export function start(exe: string, args: string[], env: NodeJS.ProcessEnv): Started {
  // Linux runners: no setuid sandbox helper and restricted user namespaces, as for Playwright's Electron.
  const sandbox = process.platform === 'linux' ? ['--no-sandbox'] : [];
  const child = spawn(exe, [...sandbox, '--remote-debugging-port=0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const outcome = new Promise<{ devtools: string } | { exit: number | null; signal: NodeJS.Signals | null }>(
    (resolve) => {
      const read = (chunk: Buffer) => {
        text += chunk.toString('utf8');
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (match?.[1]) resolve({ devtools: match[1] });
      };
      child.stderr?.on('data', read);
      child.stdout?.on('data', read);
      child.once('exit', (exit, signal) => resolve({ exit, signal }));
    },
  );
  return { process: child, output: () => text, outcome };
}

/** Ends it (never a graceful quit: that would run an update's installer) and waits for the exit. */
export async function stop(started: Started): Promise<void> {
  if (started.process.exitCode !== null || started.process.signalCode !== null) return;
  const exited = new Promise((resolve) => started.process.once('exit', resolve));
  started.process.kill();
  await exited;
}
