/**
 * One computer's disk, in memory, with the durability a real one has:
 * - what a process wrote is in the page cache at once (every later read sees it), but on the
 *   disk only once fsynced: a file's bytes by `handle.sync()`, a folder's entries (a file
 *   created, renamed or removed) by fsyncing the folder (`open(folder, 'r')` then `sync()`);
 * - a process killed keeps everything it wrote, but the write under way when it died is torn
 *   (a random part of its bytes);
 * - a power cut keeps what was fsynced, and of the rest only what the system happened to write
 *   back: a random prefix of a file's unsynced bytes, each unsynced folder change or not;
 * - a full disk (ENOSPC) refuses writes after writing a random part of them.
 * The ops used are those of `node:fs/promises` the core uses (open/readFile/writeFile/rename/
 * link/mkdir/rm/truncate/copyFile/readdir/lstat/chmod, and the file handle's appendFile/
 * writeFile/sync/close). Modes are not kept: every file is the staff member's alone (0600, its
 * folders 0700), as the core makes them.
 * A view of the disk belongs to one run of a process: once that run is dead, its calls never
 * return (a dead process does nothing more).
 */
import { constants } from 'node:fs';
import { dirname } from 'node:path';
import type { JournalFs } from '../../../electron/core/safety-copy/journal-file';
import type { Owner } from './loop';
import type { Rng } from './rng';

interface Inode {
  /** What reads see (the page cache). */
  data: Buffer;
  /** What is on the disk. */
  synced: Buffer;
}

interface Folder {
  live: Map<string, Inode>;
  durable: Map<string, Inode>;
}

export type CrashKind = 'kill' | 'power';

function fsError(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const error = new Error(`${code}: ${syscall} '${path}'`) as NodeJS.ErrnoException;
  error.code = code;
  error.syscall = syscall;
  error.path = path;
  return error;
}

function split(path: string): { folder: string; name: string } {
  return { folder: dirname(path), name: path.slice(dirname(path).length + 1) };
}

/** A promise that never settles: what a dead process's call waits for. */
const never = <T>(): Promise<T> => new Promise<T>(() => {});

export interface DiskHooks {
  /** An armed crash went off during an operation of `owner`'s process. */
  crashed(kind: CrashKind): void;
}

export class Disk {
  readonly #folders = new Map<string, Folder>();
  /** Set while the disk is full: writes fail with ENOSPC. */
  full = false;
  /** Planted bug "skip the fsync of the folder": folder fsyncs do nothing (a scratch run only). */
  ignoreFolderSync = false;
  #armed: { after: number; kind: CrashKind } | null = null;
  #writes = 0;
  /** Every byte ever written, for the check that no key reached the disk. */
  readonly written: string[] = [];

  constructor(
    private readonly rng: Rng,
    private readonly hooks: DiskHooks,
  ) {}

  /** A disk holding these files, all on the disk (to read a copy without touching the original). */
  static of(files: Map<string, string>, rng: Rng): Disk {
    const disk = new Disk(rng, { crashed: () => {} });
    for (const [path, text] of files) {
      disk.mkdir(dirname(path));
      const bytes = Buffer.from(text, 'utf8');
      const inode: Inode = { data: bytes, synced: Buffer.from(bytes) };
      const { folder, name } = split(path);
      const entries = disk.#folders.get(folder)!;
      entries.live.set(name, inode);
      entries.durable.set(name, inode);
    }
    return disk;
  }

  /** Arms a crash: the `after`-th write from now is cut off part-way and the process dies there. */
  armCrash(after: number, kind: CrashKind): void {
    this.#armed = { after: this.#writes + Math.max(1, after), kind };
  }

  disarm(): void {
    this.#armed = null;
  }

  /** The power goes: only what was fsynced stays, plus a random part of what was written back. */
  powerCut(): void {
    for (const folder of this.#folders.values()) {
      const names = new Set([...folder.live.keys(), ...folder.durable.keys()]);
      const kept = new Map<string, Inode>();
      for (const name of names) {
        const live = folder.live.get(name);
        const durable = folder.durable.get(name);
        const choice = live === durable || this.rng.chance(0.5) ? durable : live;
        if (choice) kept.set(name, choice);
      }
      folder.live = kept;
      folder.durable = new Map(kept);
    }
    for (const inode of this.#inodes()) {
      const { data, synced } = inode;
      let after = synced;
      if (data.length > synced.length && data.subarray(0, synced.length).equals(synced)) {
        after = data.subarray(0, synced.length + this.rng.int(0, data.length - synced.length));
      } else if (!data.equals(synced) && this.rng.chance(0.5)) after = data;
      inode.data = Buffer.from(after);
      inode.synced = Buffer.from(after);
    }
  }

  /** The files as they would be read after a power cut now, fsynced bytes only (for the checks). */
  durableFiles(): Map<string, string> {
    const files = new Map<string, string>();
    for (const [path, folder] of this.#folders)
      for (const [name, inode] of folder.durable) files.set(`${path}/${name}`, inode.synced.toString('utf8'));
    return files;
  }

  /** Every file as a process reads it now. */
  liveFiles(): Map<string, string> {
    const files = new Map<string, string>();
    for (const [path, folder] of this.#folders)
      for (const [name, inode] of folder.live) files.set(`${path}/${name}`, inode.data.toString('utf8'));
    return files;
  }

  /** The `node:fs/promises` of one run of a process on this disk. */
  view(owner: Owner): DiskFs {
    return new DiskFs(this, owner);
  }

  *#inodes(): Iterable<Inode> {
    const seen = new Set<Inode>();
    for (const folder of this.#folders.values())
      for (const map of [folder.live, folder.durable])
        for (const inode of map.values()) if (!seen.has(inode)) yield (seen.add(inode), inode);
  }

  mkdir(path: string): void {
    for (let at = path; at !== dirname(at); at = dirname(at)) {
      if (!this.#folders.has(at)) this.#folders.set(at, { live: new Map(), durable: new Map() });
    }
  }

  lookup(path: string): Inode | undefined {
    const { folder, name } = split(path);
    return this.#folders.get(folder)?.live.get(name);
  }

  /**
   * Counts a write and says how it goes: 'ok', or 'crash' (the armed crash goes off now: the
   * caller tears its write and the process dies).
   */
  step(): 'ok' | 'crash' {
    this.#writes += 1;
    if (this.#armed && this.#writes >= this.#armed.after) return 'crash';
    return 'ok';
  }

  crash(): void {
    const armed = this.#armed;
    this.#armed = null;
    if (!armed) return;
    if (armed.kind === 'power') this.powerCut();
    this.hooks.crashed(armed.kind);
  }

  /** A random part of `bytes` (what a torn or refused write leaves). */
  part(bytes: Buffer): Buffer {
    return bytes.subarray(0, this.rng.int(0, bytes.length));
  }

  record(text: string): void {
    this.written.push(text);
  }

  /** Makes a folder's entries durable (a folder fsync). */
  syncFolder(path: string): void {
    if (this.ignoreFolderSync) return;
    const folder = this.#folders.get(path);
    if (folder) folder.durable = new Map(folder.live);
  }

  link(path: string, inode: Inode | undefined): void {
    const { folder, name } = split(path);
    const entries = this.#folders.get(folder);
    if (!entries) throw fsError('ENOENT', 'open', path);
    if (inode) entries.live.set(name, inode);
    else entries.live.delete(name);
  }

  hasFolder(path: string): boolean {
    return this.#folders.has(path);
  }

  names(path: string): string[] {
    return [...(this.#folders.get(path)?.live.keys() ?? [])];
  }

  newInode(): Inode {
    return { data: Buffer.alloc(0), synced: Buffer.alloc(0) };
  }
}

type Flags = 'r' | 'w' | 'wx' | 'a';

/**
 * The flags of an `open` as one of the simulated disk's: numeric ones (atomic-file.ts opens its
 * temporary file O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW) by what they do here.
 */
function flagsOf(flags: string | number, path: string): Flags {
  if (typeof flags === 'string') {
    if (flags === 'r' || flags === 'w' || flags === 'wx' || flags === 'a') return flags;
  } else {
    if (flags & constants.O_EXCL) return 'wx';
    if (flags & constants.O_APPEND) return 'a';
    if (flags & constants.O_TRUNC) return 'w';
    if ((flags & (constants.O_WRONLY | constants.O_RDWR)) === 0) return 'r';
  }
  throw new Error(`the simulated disk has no open flags ${String(flags)} (${path})`);
}

/** What `lstat` answers of a file or folder (modes as the core makes them: private). */
function statsOf(kind: 'file' | 'folder', size: number) {
  return {
    mode: kind === 'folder' ? constants.S_IFDIR | 0o700 : constants.S_IFREG | 0o600,
    size,
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'folder',
    isSymbolicLink: () => false,
  };
}

/** A file handle of `DiskFs.open`. */
class DiskHandle {
  constructor(
    private readonly fs: DiskFs,
    private readonly path: string,
    private readonly inode: Inode | null,
    private readonly flags: Flags,
  ) {}

  appendFile(text: string | Buffer): Promise<void> {
    return this.fs.write(this.path, () => this.inode!, Buffer.from(text), 'append');
  }

  writeFile(text: string | Buffer): Promise<void> {
    return this.fs.write(this.path, () => this.inode!, Buffer.from(text), 'replace');
  }

  sync(): Promise<void> {
    return this.fs.sync(this.path, this.inode, this.flags);
  }

  async close(): Promise<void> {
    await this.fs.alive();
  }
}

/** `node:fs/promises` over a Disk, for one run of a process (`owner`). */
export class DiskFs {
  constructor(
    readonly disk: Disk,
    readonly owner: Owner,
  ) {}

  /** Resolves at once while the process lives; never once it is dead. */
  alive(): Promise<void> {
    return this.owner.dead ? never() : Promise.resolve();
  }

  /** Counts a write; when the armed crash goes off, applies `torn` and the process dies. */
  #step(torn: () => void): 'ok' | 'dead' {
    if (this.disk.step() === 'ok') return 'ok';
    torn();
    this.disk.crash();
    return 'dead';
  }

  async write(path: string, inodeOf: () => Inode, bytes: Buffer, mode: 'append' | 'replace'): Promise<void> {
    await this.alive();
    const inode = inodeOf();
    const apply = (part: Buffer) => {
      this.disk.record(part.toString('utf8'));
      inode.data = mode === 'append' ? Buffer.concat([inode.data, part]) : Buffer.from(part);
    };
    if (this.#step(() => apply(this.disk.part(bytes))) === 'dead') return never();
    if (this.disk.full) {
      apply(this.disk.part(bytes));
      throw fsError('ENOSPC', 'write', path);
    }
    apply(bytes);
  }

  async sync(path: string, inode: Inode | null, flags: Flags): Promise<void> {
    await this.alive();
    if (this.#step(() => {}) === 'dead') return never();
    if (inode) inode.synced = Buffer.from(inode.data);
    else if (flags === 'r') this.disk.syncFolder(path);
  }

  async open(path: string, given: string | number = 'r'): Promise<DiskHandle> {
    const flags = flagsOf(given, path);
    await this.alive();
    const { folder } = split(path);
    if (flags === 'r') {
      if (this.disk.hasFolder(path)) return new DiskHandle(this, path, null, flags);
      const inode = this.disk.lookup(path);
      if (!inode) throw fsError('ENOENT', 'open', path);
      return new DiskHandle(this, path, inode, flags);
    }
    if (!this.disk.hasFolder(folder)) throw fsError('ENOENT', 'open', path);
    let inode = this.disk.lookup(path);
    if (inode && flags === 'wx') throw fsError('EEXIST', 'open', path);
    if (!inode || flags === 'w') {
      const created = this.disk.newInode();
      if (this.#step(() => {}) === 'dead') return never();
      this.disk.link(path, created);
      inode = created;
    }
    return new DiskHandle(this, path, inode, flags);
  }

  async readFile(path: string, _encoding?: unknown): Promise<string> {
    await this.alive();
    const inode = this.disk.lookup(path);
    if (!inode) throw fsError('ENOENT', 'open', path);
    return inode.data.toString('utf8');
  }

  /** `fs.writeFile(path, data, { flag })`: an open, one write and a close (no fsync). */
  async writeFile(path: string, data: string | Buffer, options?: { flag?: string | number } | string): Promise<void> {
    const flag = typeof options === 'object' ? (options.flag ?? 'w') : 'w';
    const handle = await this.open(path, flag);
    await handle.writeFile(data);
    await handle.close();
  }

  /** A second name for a file (a hard link): EEXIST when the name is taken. */
  async link(existing: string, path: string): Promise<void> {
    await this.alive();
    const inode = this.disk.lookup(existing);
    if (!inode) throw fsError('ENOENT', 'link', existing);
    if (!this.disk.hasFolder(dirname(path))) throw fsError('ENOENT', 'link', path);
    if (this.disk.lookup(path) || this.disk.hasFolder(path)) throw fsError('EEXIST', 'link', path);
    if (this.#step(() => {}) === 'dead') return never();
    this.disk.link(path, inode);
  }

  async lstat(path: string): Promise<ReturnType<typeof statsOf>> {
    await this.alive();
    if (this.disk.hasFolder(path)) return statsOf('folder', 0);
    const inode = this.disk.lookup(path);
    if (!inode) throw fsError('ENOENT', 'lstat', path);
    return statsOf('file', inode.data.length);
  }

  /** Modes are not kept (see above): a chmod of something there does nothing. */
  async chmod(path: string, _mode: number): Promise<void> {
    await this.lstat(path);
  }

  async rename(from: string, to: string): Promise<void> {
    await this.alive();
    const inode = this.disk.lookup(from);
    if (!inode) throw fsError('ENOENT', 'rename', from);
    const rename = () => {
      this.disk.link(to, inode);
      this.disk.link(from, undefined);
    };
    if (this.#step(() => (this.disk.part(Buffer.from('x')).length > 0 ? rename() : undefined)) === 'dead')
      return never();
    rename();
  }

  async mkdir(path: string, _options?: unknown): Promise<undefined> {
    await this.alive();
    this.disk.mkdir(path);
    return undefined;
  }

  async rm(path: string, options?: { force?: boolean }): Promise<void> {
    await this.alive();
    if (!this.disk.lookup(path)) {
      if (options?.force) return;
      throw fsError('ENOENT', 'rm', path);
    }
    if (this.#step(() => {}) === 'dead') return never();
    this.disk.link(path, undefined);
  }

  async truncate(path: string, length = 0): Promise<void> {
    await this.alive();
    const inode = this.disk.lookup(path);
    if (!inode) throw fsError('ENOENT', 'truncate', path);
    if (this.#step(() => {}) === 'dead') return never();
    inode.data = Buffer.from(inode.data.subarray(0, length));
  }

  async copyFile(from: string, to: string): Promise<void> {
    await this.alive();
    const source = this.disk.lookup(from);
    if (!source) throw fsError('ENOENT', 'copyfile', from);
    const handle = await this.open(to, 'w');
    await handle.writeFile(source.data);
  }

  /** This file system as the journal's (it has every call the journal makes, typed loosely). */
  asJournalFs(): JournalFs {
    return this as unknown as JournalFs;
  }

  /** The files of a folder (its folders are not listed: the core lists only files). */
  async readdir(
    path: string,
    options?: { withFileTypes?: boolean },
  ): Promise<string[] | Array<{ name: string; isFile(): boolean; isDirectory(): boolean }>> {
    await this.alive();
    if (!this.disk.hasFolder(path)) throw fsError('ENOENT', 'scandir', path);
    const names = this.disk.names(path);
    if (!options?.withFileTypes) return names;
    return names.map((name) => ({ name, isFile: () => true, isDirectory: () => false }));
  }
}
