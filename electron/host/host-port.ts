/**
 * One origin per data folder for the browser host. The browser keeps a profile's saved
 * animals and its queue of animals waiting to be sent in IndexedDB, which is per origin
 * (scheme, host and port): a host restarted on another port would show an empty queue and
 * never send it. So the host remembers its port in the data folder (`browser-host.json`)
 * and starts on it again; when that port is taken it stops with `PortTakenError`, which says
 * which port, where the queue is and how to free it.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { nodeSettingsFs, writeFileAtomic } from '../core';

export const HOST_PORT_FILE = 'browser-host.json';
const PortFile = z.object({ version: z.literal(1), port: z.number().int().min(1).max(65535) });

const originAt = (port: number): string => `http://127.0.0.1:${port}`;

/** The port this data folder's host used before, or null (none yet, or an unreadable file). */
export async function readRememberedPort(dataDir: string): Promise<number | null> {
  try {
    const parsed = PortFile.safeParse(JSON.parse(await nodeSettingsFs.readFile(join(dataDir, HOST_PORT_FILE), 'utf8')));
    return parsed.success ? parsed.data.port : null;
  } catch {
    return null;
  }
}

export async function rememberPort(dataDir: string, port: number): Promise<void> {
  await nodeSettingsFs.mkdir(dataDir, { recursive: true });
  await writeFileAtomic(nodeSettingsFs, join(dataDir, HOST_PORT_FILE), `${JSON.stringify({ version: 1, port })}\n`);
}

export class PortTakenError extends Error {
  override readonly name = 'PortTakenError';

  constructor(port: number, dataDir: string) {
    super(
      `Port ${port} on 127.0.0.1 is in use, so Adoption Desk did not start. This data folder (${dataDir}) ` +
        `always opens at ${originAt(port)}: the browser keeps the animals waiting to be sent (the queue) and the ` +
        `saved animals under that address, and on another port they would not be shown or sent. ` +
        `Free the port and start again: another Adoption Desk may be running with this data folder (stop it with ` +
        `Ctrl+C), or find what holds the port with \`ss -ltnp 'sport = :${port}'\` (Linux), ` +
        `\`lsof -nP -iTCP:${port} -sTCP:LISTEN\` (macOS) or \`netstat -ano | findstr :${port}\` (Windows). ` +
        `To start on another port anyway, pass --port N: animals queued at ${originAt(port)} stay there until ` +
        `that address is opened again.`,
    );
  }
}

/** What to say when a host of this data folder runs at another address than the remembered one. */
export function otherPortNotice(remembered: number, port: number): string {
  return (
    `This run uses ${originAt(port)}, not ${originAt(remembered)}, the usual address of this data folder: ` +
    `animals queued or saved at ${originAt(remembered)} are not shown here (start without --port to get them).`
  );
}
