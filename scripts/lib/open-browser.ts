/**
 * Opens a URL in the user's browser when one can be found; never fails (the URL is printed
 * anyway). On Linux only with a display, so nothing starts a text browser in the terminal.
 */
import { spawn, spawnSync } from 'node:child_process';

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v "${command}"`], { stdio: 'ignore' }).status === 0;
}

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

/** Returns what it used to open the URL, or null when it found nothing. */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (process.platform === 'darwin') return launch('open', [url]) ? 'open' : null;
  if (process.platform === 'win32') return launch('cmd', ['/c', 'start', '""', url]) ? 'start' : null;
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  for (const command of ['xdg-open', 'chromium', 'chromium-browser', 'google-chrome', 'firefox']) {
    if (onPath(command) && launch(command, [url])) return command;
  }
  return null;
}

export { onPath };
