/**
 * Opens a URL in the user's browser when one can be found; never fails (the URL is printed
 * anyway). On Linux only with a display, so nothing starts a text browser in the terminal.
 *
 * The URL holds a one-time secret, and a process's command line is visible to every user of the
 * computer (`ps`). So the browser is given a file instead: a page in a folder only this user can
 * read (0700, the page 0600) that sends the browser on to the URL; it is deleted once the link has
 * expired (two minutes, electron/host/launch-session.ts) or when this process ends.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How long the page that forwards to the launch link is kept. */
export const LAUNCH_FILE_KEPT_MS = 2 * 60_000;

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v "${command}"`], { stdio: 'ignore' }).status === 0;
}

export type Launcher = (command: string, args: string[]) => boolean;

function launch(command: string, args: string[]): boolean {
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface LaunchFile {
  /** `file:///…/open-adoption-desk.html`: what the browser is given on its command line. */
  fileUrl: string;
  path: string;
  remove(): void;
}

/** Writes the page that forwards to `url`, readable by this user only. */
export function writeLaunchFile(url: string, parent: string = tmpdir()): LaunchFile {
  // mkdtemp makes the folder 0700
  const folder = mkdtempSync(join(parent, 'adoption-open-'));
  const path = join(folder, 'open-adoption-desk.html');
  const href = escapeHtml(url);
  writeFileSync(
    path,
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}">` +
      `<title>Opening Adoption Desk</title></head><body><p><a href="${href}">Open Adoption Desk</a></p></body></html>\n`,
    { mode: 0o600 },
  );
  return { fileUrl: pathToFileURL(path).href, path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** The browsers tried on Linux, in order. */
const LINUX_OPENERS = ['xdg-open', 'chromium', 'chromium-browser', 'google-chrome', 'firefox'];

/**
 * Returns what it used to open the URL, or null when it found nothing. `found` says whether a
 * command is on PATH (asked on Linux only; tests give their own, so they do not depend on what the
 * machine has installed).
 */
export function openInBrowser(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  launcher: Launcher = launch,
  platform: NodeJS.Platform = process.platform,
  found: (command: string) => boolean = onPath,
): string | null {
  if (platform !== 'darwin' && platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  const file = writeLaunchFile(url);
  const timer = setTimeout(() => file.remove(), LAUNCH_FILE_KEPT_MS);
  timer.unref();
  process.once('exit', () => file.remove());
  const opened = (() => {
    if (platform === 'darwin') return launcher('open', [file.fileUrl]) ? 'open' : null;
    if (platform === 'win32') return launcher('cmd', ['/c', 'start', '""', file.fileUrl]) ? 'start' : null;
    for (const command of LINUX_OPENERS) {
      if (found(command) && launcher(command, [file.fileUrl])) return command;
    }
    return null;
  })();
  if (!opened) {
    clearTimeout(timer);
    file.remove();
  }
  return opened;
}

export { onPath };
