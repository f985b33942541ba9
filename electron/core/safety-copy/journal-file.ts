/**
 * One profile's journal file: an append-only file of JSON lines, each with a checksum, in the
 * app's data folder. An append is on disk when it resolves (the file is fsynced, and the folder
 * too when the append created the file). Reading tells apart what a crash leaves (a torn last
 * line, without its newline: dropped and reported) from a damaged line elsewhere (set aside, byte
 * for byte, in a file beside the journal, reported, and the rest read on). Lines are found in the
 * file's bytes, never in decoded text. A compaction replaces the file
 * atomically (write a temp file, fsync, rename, fsync the folder): a crash at any step leaves
 * either the old file or the new one.
 */
import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { dirname } from 'node:path';
import { t } from '../../../src/shared/i18n';
import { syncFolder, writeFileAtomic } from '../data-folder';

/** The part of `node:fs/promises` the journal uses (tests inject failing or recording versions). */
export type JournalFs = Pick<typeof nodeFs, 'open' | 'readFile' | 'rename' | 'mkdir' | 'rm' | 'truncate' | 'copyFile'>;

export const nodeJournalFs: JournalFs = nodeFs;

/** What staff read when a journal could not be written (a full disk says so). */
export function journalFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'full'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'denied'
        : 'failed';
  return t('core.journalFailure', { why });
}

/** A line's checksum: the first 16 hex digits of the SHA-256 of its JSON. */
function checksum(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}

/** One line of the file: `<checksum> <json>`. */
export function encodeLine(record: unknown): string {
  const json = JSON.stringify(record);
  return `${checksum(json)} ${json}\n`;
}

export interface JournalRead {
  /** The records of every intact line, in file order. */
  records: unknown[];
  /**
   * Damaged lines (the checksum, the UTF-8 or the JSON does not hold), with their line numbers:
   * `bytes` as they are on disk (what is set aside), `text` decoded for a person to read.
   */
  damaged: Array<{ line: number; text: string; bytes: Buffer }>;
  /** The bytes of a last line cut off before its newline (a crash during an append), or null. */
  tornTail: Buffer | null;
  /** The length in bytes of the file up to the end of its last whole line (where a torn tail is cut). */
  wholeBytes: number;
}

const NEWLINE = 0x0a;
/** Strict UTF-8: a line with bytes that are no UTF-8 is damaged, never read with U+FFFD in it. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The record of one line (without its newline), or undefined when the line does not hold. */
function decodeLine(bytes: Buffer): { record: unknown } | undefined {
  let line: string;
  try {
    line = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const space = line.indexOf(' ');
  const json = space > 0 ? line.slice(space + 1) : '';
  if (space !== 16 || checksum(json) !== line.slice(0, 16)) return undefined;
  try {
    return { record: JSON.parse(json) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Splits a journal into its records; never throws. Every offset is in bytes, on the raw file:
 * decoded text would count an invalid byte as U+FFFD (three bytes), so a length measured on it
 * is no place in the file.
 */
export function decodeJournal(content: Uint8Array | string): JournalRead {
  const bytes =
    typeof content === 'string'
      ? Buffer.from(content, 'utf8')
      : Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const records: unknown[] = [];
  const damaged: JournalRead['damaged'] = [];
  const end = bytes.lastIndexOf(NEWLINE) + 1;
  let start = 0;
  for (let line = 1; start < end; line += 1) {
    const newline = bytes.indexOf(NEWLINE, start);
    const lineBytes = bytes.subarray(start, newline);
    const decoded = decodeLine(lineBytes);
    if (decoded) records.push(decoded.record);
    else damaged.push({ line, text: lineBytes.toString('utf8'), bytes: Buffer.from(lineBytes) });
    start = newline + 1;
  }
  const tornTail = end < bytes.length ? Buffer.from(bytes.subarray(end)) : null;
  return { records, damaged, tornTail, wholeBytes: end };
}

export class JournalFile {
  /** Whether this process has appended to the file yet (see `append`). */
  #appended = false;

  constructor(
    readonly path: string,
    private readonly fs: JournalFs = nodeJournalFs,
  ) {}

  /** Where damaged lines are set aside, beside the journal. */
  get setAsidePath(): string {
    return `${this.path}.set-aside`;
  }

  /**
   * Reads the file (a missing file is empty). A torn tail is cut off the file, so the next append
   * starts on a line of its own; damaged lines are appended to the set-aside file first.
   */
  async read(): Promise<JournalRead> {
    let content: Buffer;
    try {
      content = await this.fs.readFile(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { records: [], damaged: [], tornTail: null, wholeBytes: 0 };
      }
      throw error;
    }
    const read = decodeJournal(content);
    if (read.damaged.length > 0) {
      // byte for byte as they were, each on a line of its own
      const newline = Buffer.from([NEWLINE]);
      await this.appendTo(this.setAsidePath, Buffer.concat(read.damaged.flatMap((line) => [line.bytes, newline])));
    }
    if (read.tornTail !== null) await this.fs.truncate(this.path, read.wholeBytes);
    return read;
  }

  /** Appends records as lines; resolves once they are on disk. */
  async append(records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return;
    // The first append of a process fsyncs the folder as well, even when the file was there: the
    // process that created it may have died before it fsynced the folder, and then a power cut
    // could take the whole file away (the simulator's 10,000-day run, chunk 64).
    const first = !this.#appended;
    await this.appendTo(this.path, records.map(encodeLine).join(''), first);
    this.#appended = true;
  }

  /** Replaces the whole file with these records, atomically. */
  async replace(records: readonly unknown[]): Promise<void> {
    await this.fs.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.fs, this.path, records.map(encodeLine).join(''));
  }

  /** Deletes the file and what was set aside beside it. */
  async remove(): Promise<void> {
    await this.fs.rm(this.path, { force: true });
    await this.fs.rm(this.setAsidePath, { force: true });
  }

  private async appendTo(path: string, data: string | Buffer, syncFolderAnyway = false): Promise<void> {
    // The staff member's alone (data-folder/private-modes.ts): the folder 0700, the files 0600.
    await this.fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    // 'wx' first: only the append that creates the file fsyncs the folder as well.
    let created = true;
    let handle: nodeFs.FileHandle;
    try {
      handle = await this.fs.open(path, 'wx', 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      created = false;
      handle = await this.fs.open(path, 'a', 0o600);
    }
    try {
      await handle.appendFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (created || syncFolderAnyway) await syncFolder(this.fs, dirname(path));
  }
}
