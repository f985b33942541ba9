/**
 * The packaged app as the packaged-app specs start it (test/e2e/packaged/): the executable
 * `ADOPTION_PACKAGED_APP` names (set by the GitHub workflow after `electron-builder --dir`), started
 * with Chromium's `--remote-debugging-port=0` (Playwright's `_electron.launch` needs Node's
 * inspector, which the package's fuses switch off), its output read for "DevTools listening on".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { test as PlaywrightTest } from '@playwright/test';
import { electronRequired, oneLineError, type Presence, REQUIRE_ELECTRON_ENV } from './app-kind';

/** Whether the packaged project can run: the executable, or why not (skip; under ADOPTION_REQUIRE_ELECTRON=1, fail). */
export function packagedAppPresence(
  env: NodeJS.ProcessEnv,
  exists: (path: string) => boolean = existsSync,
): { kind: 'run'; executable: string } | Exclude<Presence, { kind: 'run' }> {
  const executable = env.ADOPTION_PACKAGED_APP ?? '';
  const missing = !executable
    ? 'ADOPTION_PACKAGED_APP is not set (the GitHub workflow sets it after electron-builder --dir)'
    : !exists(executable)
      ? `ADOPTION_PACKAGED_APP=${executable} does not exist`
      : null;
  if (missing === null) return { kind: 'run', executable };
  if (electronRequired(env)) return { kind: 'fail', message: `${REQUIRE_ELECTRON_ENV}=1 but ${missing}` };
  return { kind: 'skip', reason: missing };
}

/**
 * For a packaged spec's `test.describe`: the executable to start. Where it is missing the tests
 * skip with the reason (printed once per file), or, under ADOPTION_REQUIRE_ELECTRON=1, each fails
 * with one line naming what is missing.
 */
export function requirePackagedApp(test: typeof PlaywrightTest, label: string): string {
  const presence = packagedAppPresence(process.env);
  if (presence.kind === 'run') return presence.executable;
  if (presence.kind === 'skip') {
    console.log(`[${label}] skipped: ${presence.reason}`);
    test.skip(true, presence.reason);
  } else {
    test.beforeEach(() => {
      throw oneLineError(presence.message);
    });
  }
  return '';
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

/**
 * Ends it hard and waits for the exit: never a graceful quit, which would run an update's installer.
 * SIGKILL, because Electron takes SIGTERM (Node's default `kill()`) as a quit: it installs shutdown
 * signal handlers that call Browser::Quit, so before-quit, will-quit and electron-updater's quit
 * handler run (shell/browser/electron_browser_main_parts.cc:596-600). On Windows every signal
 * Node sends is TerminateProcess.
 */
export async function stop(started: Started): Promise<void> {
  if (started.process.exitCode !== null || started.process.signalCode !== null) return;
  const exited = new Promise((resolve) => started.process.once('exit', resolve));
  started.process.kill('SIGKILL');
  await exited;
}

/**
 * A data folder of the test's own for the packaged app, on every system: Chromium's
 * `--user-data-dir`, which Electron honours before any app code runs (shell/app/
 * electron_main_delegate.cc:248-255 overrides chrome::DIR_USER_DATA in PreSandboxStartup), and
 * which app.getPath('userData') returns (shell/browser/api/electron_api_app.cc:427). The packaged
 * app ignores ADOPTION_USER_DATA_DIR by design (startup-settings.ts), and APPDATA does not move it
 * on Windows: appData there is base::DIR_ROAMING_APP_DATA, the known folder, not the variable
 * (shell/common/electron_paths.h:43).
 */
export function dataFolderArgs(dir: string): string[] {
  return [`--user-data-dir=${dir}`];
}
