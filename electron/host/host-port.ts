/**
 * One origin per data folder for the browser host. The browser keeps a profile's saved
 * animals and its queue of animals waiting to be sent in IndexedDB, which is per origin
 * (scheme, host and port): a host restarted at another address would show an empty queue and
 * never send it. So the host remembers its address in the data folder (`browser-host.json`: its
 * port and its own name under .localhost, request-guard.ts) and starts there again; when that
 * port is taken it stops with `PortTakenError`, which says which port, where the queue is and
 * how to free it.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { nodeSettingsFs, writeFileAtomic } from '../core';
import { t } from '../../src/shared/i18n';
import type { LoopbackAddress } from './loopback-listen';
import { isSiteName } from './request-guard';

export const HOST_PORT_FILE = 'browser-host.json';
const Port = z.number().int().min(1).max(65535);
const AddressFile = z.union([
  z.object({ version: z.literal(2), port: Port, site: z.string().refine(isSiteName) }),
  // the first form, before the host had a name of its own
  z.object({ version: z.literal(1), port: Port }),
]);

/** Where a host of this data folder is: its port, and its name (null in a file from before names). */
export interface RememberedAddress {
  port: number;
  site: string | null;
}

const originAt = (port: number, site: string | null): string =>
  `http://${site ? `${site}.localhost` : '127.0.0.1'}:${port}`;

/** The address this data folder's host used before, or null (none yet, or an unreadable file). */
export async function readRememberedAddress(dataDir: string): Promise<RememberedAddress | null> {
  try {
    const parsed = AddressFile.safeParse(
      JSON.parse(await nodeSettingsFs.readFile(join(dataDir, HOST_PORT_FILE), 'utf8')),
    );
    if (!parsed.success) return null;
    return { port: parsed.data.port, site: parsed.data.version === 2 ? parsed.data.site : null };
  } catch {
    return null;
  }
}

export async function rememberAddress(dataDir: string, port: number, site: string): Promise<void> {
  await nodeSettingsFs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(
    nodeSettingsFs,
    join(dataDir, HOST_PORT_FILE),
    `${JSON.stringify({ version: 2, port, site })}\n`,
  );
}

export class PortTakenError extends Error {
  override readonly name = 'PortTakenError';

  constructor(port: number, address: LoopbackAddress, site: string | null, dataDir: string) {
    const origin = originAt(port, site);
    super(t('host.portTaken', { port, address, dataDir, origin }));
  }
}

/** What to say when a host of this data folder runs at another address than the remembered one. */
export function otherPortNotice(remembered: RememberedAddress, port: number, site: string): string {
  return t('host.otherPort', { origin: originAt(port, site), usual: originAt(remembered.port, remembered.site) });
}
