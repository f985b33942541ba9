/**
 * The simulated computers' disks seen through `node:fs/promises`: the core takes its journal's
 * file system by injection (`journalFs`), but its profiles file and a few other reads use
 * `node:fs/promises` itself. While a simulation runs, paths under `/sim-disk/<computer>/` go to
 * that computer's disk (disk.ts); every other path goes to the real file system untouched.
 * (Node's `syncBuiltinESMExports` makes the ES module namespace follow the patched functions.)
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { DiskFs } from './disk';

const require = createRequire(import.meta.url);
const fsPromises = require('node:fs/promises') as Record<string, (...args: unknown[]) => unknown>;

export const MOUNT_ROOT = '/sim-disk';
const PATCHED = [
  'open',
  'readFile',
  'writeFile',
  'rename',
  'link',
  'mkdir',
  'rm',
  'truncate',
  'copyFile',
  'readdir',
  'lstat',
  'chmod',
] as const;

// Kept on globalThis: the setup file installs the patch before the test's own module graph
// loads, and both must see one table.
const REGISTRY = Symbol.for('adoption-desk.sim.fs-mount');
const state = ((globalThis as unknown as Record<symbol, unknown>)[REGISTRY] ??= {
  mounts: new Map<string, () => DiskFs>(),
  originals: null,
}) as { mounts: Map<string, () => DiskFs>; originals: Record<string, (...args: unknown[]) => unknown> | null };
const mounts = state.mounts;

function mountOf(path: unknown): DiskFs | null {
  if (typeof path !== 'string' || !path.startsWith(`${MOUNT_ROOT}/`)) return null;
  const computer = path.slice(MOUNT_ROOT.length + 1).split('/')[0] ?? '';
  const fs = mounts.get(computer);
  if (!fs) throw new Error(`no simulated disk for ${path}`);
  return fs();
}

/** `fs()` gives the file system of the computer's running process (its disk view). */
export function mountDisk(computer: string, fs: () => DiskFs): string {
  mounts.set(computer, fs);
  return `${MOUNT_ROOT}/${computer}`;
}

export function unmountAll(): void {
  mounts.clear();
}

/** Routes `node:fs/promises` through the mounts (idempotent). */
export function installMounts(): void {
  if (state.originals) return;
  const originals: Record<string, (...args: unknown[]) => unknown> = (state.originals = {});
  for (const name of PATCHED) {
    const original = fsPromises[name]!;
    originals[name] = original;
    fsPromises[name] = (...args: unknown[]) => {
      const fs = mountOf(args[0]);
      if (!fs) return original(...args);
      const method = (fs as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!;
      return method.apply(fs, args);
    };
  }
  syncBuiltinESMExports();
}

export function uninstallMounts(): void {
  const originals = state.originals;
  if (!originals) return;
  for (const name of PATCHED) fsPromises[name] = originals[name]!;
  state.originals = null;
  syncBuiltinESMExports();
  unmountAll();
}
