/**
 * The safety copy's journal file on a real file system (a folder of the test's own): what is on
 * disk when an append resolves, what a crash leaves, a damaged line, a compaction cut short at
 * each of its steps, a full disk.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decodeJournal,
  encodeLine,
  type JournalFs,
  JournalFile,
} from '../../../../electron/core/safety-copy/journal-file';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function journalPath(): string {
  const folder = mkdtempSync(join(tmpdir(), 'adoption-journal-'));
  folders.push(folder);
  return join(folder, 'safety-copy', 'local.jsonl');
}

/** The real file system, telling which file handles were fsynced (by the path they were opened with). */
function recordingFs(): { fs: JournalFs; synced: string[] } {
  const synced: string[] = [];
  const open = (async (path: string, flags?: string, mode?: number) => {
    const handle = await fs.open(path, flags, mode);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      synced.push(String(path));
      await sync();
    };
    return handle;
  }) as JournalFs['open'];
  return { fs: { ...fs, open }, synced };
}

describe('the journal file', () => {
  it('has each append on disk when it resolves: the file fsynced, and its folder when the append created it', async () => {
    const path = journalPath();
    const { fs: recording, synced } = recordingFs();
    const file = new JournalFile(path, recording);
    await file.append([{ n: 1 }, { n: 2 }]);
    expect(synced).toEqual([path, join(path, '..')]);
    await file.append([{ n: 3 }]);
    expect(synced).toEqual([path, join(path, '..'), path]);
    expect((await new JournalFile(path).read()).records).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('fsyncs the folder at the first append of a process even when the file was there: its creator may have died before it could', async () => {
    // The 10,000-day run (chunk 64): the app died during the append that created the journal,
    // before the folder's fsync; started again, its appends found the file and never fsynced the
    // folder, so a power cut could take the file, and every animal in it, away.
    const path = journalPath();
    await new JournalFile(path).append([{ n: 1 }]);
    const { fs: recording, synced } = recordingFs();
    const restarted = new JournalFile(path, recording);
    await restarted.read();
    await restarted.append([{ n: 2 }]);
    expect(synced).toEqual([path, join(path, '..')]);
    await restarted.append([{ n: 3 }]);
    expect(synced).toEqual([path, join(path, '..'), path]);
  });

  it('reads a missing file as empty', async () => {
    expect(await new JournalFile(journalPath()).read()).toEqual({
      records: [],
      damaged: [],
      tornTail: null,
      wholeBytes: 0,
    });
  });

  it('leaves out a torn last line (a crash mid-append), says so, and cuts it off so the next append stands alone', async () => {
    const path = journalPath();
    const file = new JournalFile(path);
    await file.append([{ n: 1 }]);
    const torn = encodeLine({ n: 2 }).slice(0, 20);
    appendFileSync(path, torn);

    const read = await file.read();
    expect(read.records).toEqual([{ n: 1 }]);
    expect(read.tornTail).toEqual(Buffer.from(torn));
    expect(readFileSync(path, 'utf8')).toBe(encodeLine({ n: 1 }));
    await file.append([{ n: 3 }]);
    expect((await file.read()).records).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('sets a damaged line aside beside the journal and reads the rest', async () => {
    const path = journalPath();
    const file = new JournalFile(path);
    await file.append([{ name: 'Rex' }, { name: 'Kitten' }, { name: 'Olive' }]);
    const lines = readFileSync(path, 'utf8').split('\n');
    const damaged = lines[1]!.replace('Kitten', 'Kitteh');
    writeFileSync(path, [lines[0], damaged, lines[2], ''].join('\n'));

    const read = await file.read();
    expect(read.records).toEqual([{ name: 'Rex' }, { name: 'Olive' }]);
    expect(read.damaged).toEqual([{ line: 2, text: damaged, bytes: Buffer.from(damaged) }]);
    expect(readFileSync(file.setAsidePath, 'utf8')).toBe(`${damaged}\n`);
    expect(decodeJournal('not a line\n').damaged).toEqual([
      { line: 1, text: 'not a line', bytes: Buffer.from('not a line') },
    ]);
  });

  it('a line holding invalid UTF-8 beside a torn tail: the tail is cut at its byte, and the next record is read back', async () => {
    const path = journalPath();
    const file = new JournalFile(path);
    await file.append([{ n: 1 }]);
    // a damaged line: three bytes that are no UTF-8 (each would decode to U+FFFD, 3 bytes)
    const damaged = Buffer.concat([Buffer.from('garbage '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' line')]);
    const torn = Buffer.from(encodeLine({ n: 2 }).slice(0, 20));
    appendFileSync(path, Buffer.concat([damaged, Buffer.from('\n'), torn]));
    const whole = readFileSync(path).length - torn.length;

    const read = await file.read();
    expect(read.records).toEqual([{ n: 1 }]);
    expect(read.damaged).toHaveLength(1);
    expect(read.wholeBytes).toBe(whole);
    expect(readFileSync(path).length).toBe(whole);
    // set aside as the bytes it was, not as decoded text
    expect(readFileSync(file.setAsidePath)).toEqual(Buffer.concat([damaged, Buffer.from('\n')]));

    await file.append([{ n: 3 }]);
    const again = await new JournalFile(path).read();
    expect(again.records).toEqual([{ n: 1 }, { n: 3 }]);
    expect(again.damaged).toHaveLength(1);
    expect(again.tornTail).toBeNull();
  });

  it('a full disk fails the append; what it wrote of the line is cut off at the next read', async () => {
    const path = journalPath();
    await new JournalFile(path).append([{ n: 1 }]);
    const full = {
      ...fs,
      open: (async (p: string, flags?: string, mode?: number) => {
        const handle = await fs.open(p, flags, mode);
        handle.appendFile = async (text: string | Uint8Array) => {
          await fs.appendFile(p, String(text).slice(0, 7));
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        };
        return handle;
      }) as JournalFs['open'],
    };
    await expect(new JournalFile(path, full).append([{ n: 2 }])).rejects.toMatchObject({ code: 'ENOSPC' });
    const file = new JournalFile(path);
    expect((await file.read()).records).toEqual([{ n: 1 }]);
    await file.append([{ n: 3 }]);
    expect((await file.read()).records).toEqual([{ n: 1 }, { n: 3 }]);
  });

  describe('a compaction cut short leaves the old file or the new one, never neither', () => {
    const steps = ['open the temp file', 'write it', 'fsync it', 'rename it'] as const;
    it.each(steps)('failing to %s leaves the old file', async (step) => {
      const path = journalPath();
      const old = new JournalFile(path);
      await old.append([{ n: 1 }, { n: 2 }]);
      const before = readFileSync(path, 'utf8');
      const failing: JournalFs = {
        ...fs,
        open: (async (p: string, flags?: string, mode?: number) => {
          if (String(p).includes('.tmp-') && step === 'open the temp file') throw new Error('EIO');
          const handle = await fs.open(p, flags, mode);
          if (String(p).includes('.tmp-') && step === 'write it')
            handle.writeFile = () => Promise.reject(new Error('EIO'));
          if (String(p).includes('.tmp-') && step === 'fsync it') handle.sync = () => Promise.reject(new Error('EIO'));
          return handle;
        }) as JournalFs['open'],
        rename: step === 'rename it' ? () => Promise.reject(new Error('EIO')) : fs.rename,
      };
      await expect(new JournalFile(path, failing).replace([{ n: 9 }])).rejects.toThrow('EIO');
      expect(readFileSync(path, 'utf8')).toBe(before);
      expect((await new JournalFile(path).read()).records).toEqual([{ n: 1 }, { n: 2 }]);
      expect((await fs.readdir(join(path, '..'))).filter((name) => name.includes('.tmp-'))).toEqual([]);
    });

    it('once renamed the new file is whole, even when fsyncing the folder is refused', async () => {
      const path = journalPath();
      await new JournalFile(path).append([{ n: 1 }]);
      const noFolderSync: JournalFs = {
        ...fs,
        open: (async (p: string, flags?: string, mode?: number) => {
          if (flags === 'r') throw Object.assign(new Error('EISDIR'), { code: 'EISDIR' });
          return fs.open(p, flags, mode);
        }) as JournalFs['open'],
      };
      await new JournalFile(path, noFolderSync).replace([{ n: 9 }]);
      expect((await new JournalFile(path).read()).records).toEqual([{ n: 9 }]);
    });

    it('a compaction to nothing leaves an empty journal', async () => {
      const path = journalPath();
      const file = new JournalFile(path);
      await file.append([{ n: 1 }]);
      await file.replace([]);
      expect(existsSync(path)).toBe(true);
      expect(readFileSync(path, 'utf8')).toBe('');
    });
  });
});
