/**
 * One profile's journal file: an append-only file of JSON lines, each with a checksum, in the
 * app's data folder. An append is on disk when it resolves (the file is fsynced, and the folder
 * too when the append created the file). Reading tells apart what a crash leaves (a torn last
 * line, without its newline: dropped and reported) from a damaged line elsewhere (set aside in a
 * file beside the journal, reported, and the rest read on). A compaction replaces the file
 * atomically (write a temp file, fsync, rename, fsync the folder): a crash at any step leaves
 * either the old file or the new one.
 */
import { createHash } from 'node:crypto';
import * as nodeFs from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncFolder, writeFileAtomic } from '../data-folder';

/** The part of `node:fs/promises` the journal uses (tests inject failing or recording versions). */
export type JournalFs = Pick<typeof nodeFs, 'open' | 'readFile' | 'rename' | 'mkdir' | 'rm' | 'truncate' | 'copyFile'>;

export const nodeJournalFs: JournalFs = nodeFs;

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
  /** Damaged lines (the checksum or the JSON does not hold), as they were, with their line numbers. */
  damaged: Array<{ line: number; text: string }>;
  /** The bytes of a last line cut off before its newline (a crash during an append), or null. */
  tornTail: string | null;
  /** The length of the file up to the end of its last whole line. */
  wholeBytes: number;
}

/** Splits a journal's text into its records; never throws. */
export function decodeJournal(text: string): JournalRead {
  const records: unknown[] = [];
  const damaged: JournalRead['damaged'] = [];
  const end = text.lastIndexOf('\n') + 1;
  const tornTail = end < text.length ? text.slice(end) : null;
  const lines = text.slice(0, end).split('\n');
  lines.pop();
  lines.forEach((line, index) => {
    const space = line.indexOf(' ');
    const json = space > 0 ? line.slice(space + 1) : '';
    if (space !== 16 || checksum(json) !== line.slice(0, 16)) {
      damaged.push({ line: index + 1, text: line });
      return;
    }
    try {
      records.push(JSON.parse(json));
    } catch {
      damaged.push({ line: index + 1, text: line });
    }
  });
  return { records, damaged, tornTail, wholeBytes: Buffer.byteLength(text.slice(0, end), 'utf8') };
}

export class JournalFile {
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
    let text: string;
    try {
      text = await this.fs.readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return { records: [], damaged: [], tornTail: null, wholeBytes: 0 };
      }
      throw error;
    }
    const read = decodeJournal(text);
    if (read.damaged.length > 0) {
      await this.appendTo(this.setAsidePath, read.damaged.map((line) => `${line.text}\n`).join(''));
    }
    if (read.tornTail !== null) await this.fs.truncate(this.path, read.wholeBytes);
    return read;
  }

  /** Appends records as lines; resolves once they are on disk. */
  async append(records: readonly unknown[]): Promise<void> {
    if (records.length === 0) return;
    await this.appendTo(this.path, records.map(encodeLine).join(''));
  }

  /** Replaces the whole file with these records, atomically. */
  async replace(records: readonly unknown[]): Promise<void> {
    await this.fs.mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomic(this.fs, this.path, records.map(encodeLine).join(''));
  }

  /** Deletes the file and what was set aside beside it. */
  async remove(): Promise<void> {
    await this.fs.rm(this.path, { force: true });
    await this.fs.rm(this.setAsidePath, { force: true });
  }

  private async appendTo(path: string, text: string): Promise<void> {
    await this.fs.mkdir(dirname(path), { recursive: true });
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
      await handle.appendFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (created) await syncFolder(this.fs, dirname(path));
  }
}
