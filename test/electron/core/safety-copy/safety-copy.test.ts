/**
 * The safety copy's rules on a real data folder: what is open, what is in doubt, what is settled,
 * batches, edits, compaction, a full disk, and a journal read again by a new process.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalFs } from '../../../../electron/core/safety-copy/journal-file';
import { SafetyCopy } from '../../../../electron/core/safety-copy/safety-copy';
import type { SafetyEntry } from '../../../../src/shared/app-api/api';
import { FakeClock } from '../../../support/fake-clock';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function setup(fsOverride?: JournalFs) {
  const dataDir = mkdtempSync(join(tmpdir(), 'adoption-safety-'));
  folders.push(dataDir);
  const clock = new FakeClock();
  const problems: string[] = [];
  const make = (fsToUse?: JournalFs) =>
    new SafetyCopy({ dataDir, clock, logError: (m) => problems.push(m), ...(fsToUse ? { fs: fsToUse } : {}) });
  return { dataDir, clock, problems, copy: make(fsOverride), reopen: () => make() };
}

function entry(name: string, createdAt = 1000): SafetyEntry {
  return { localId: randomUUID(), idempotencyKey: randomUUID(), animal: { name, categoryId: '7' }, createdAt };
}

const names = (read: { entries: Array<{ animal: { name: string } }> }) => read.entries.map((e) => e.animal.name);

describe('the safety copy', () => {
  it('keeps entries in the order entered; a new process reads them back', async () => {
    const { copy, reopen } = setup();
    const [olive, basil, sage] = [entry('Olive'), entry('Basil'), entry('Sage')];
    expect(await copy.keep('local', randomUUID(), [olive!], true)).toBe(1);
    await copy.keep('local', randomUUID(), [basil!, sage!], true);
    expect(await copy.read('local')).toEqual({
      entries: [olive, basil, sage].map((e) => ({ ...e, doubtSince: null })),
      problems: [],
    });
    expect(names(await reopen().read('local'))).toEqual(['Olive', 'Basil', 'Sage']);
  });

  it('counts a batch kept in several calls only once its last call came', async () => {
    const { copy } = setup();
    const batch = randomUUID();
    await copy.keep('local', batch, [entry('A'), entry('B')], false);
    expect(names(await copy.read('local'))).toEqual([]);
    await copy.keep('local', batch, [entry('C')], true);
    expect(names(await copy.read('local'))).toEqual(['A', 'B', 'C']);
  });

  it('an entry kept in doubt is read back in doubt, by a new process too', async () => {
    // The window's restore copies into the safety copy an entry IndexedDB has in doubt (its send
    // may have reached the service: the core may even have acknowledged and forgotten it).
    const { copy, reopen } = setup();
    const unheard = { ...entry('Unheard'), doubtSince: 5_000 };
    await copy.keep('local', randomUUID(), [unheard], true);
    expect((await copy.read('local')).entries).toMatchObject([{ localId: unheard.localId, doubtSince: 5_000 }]);
    expect((await reopen().read('local')).entries).toMatchObject([{ localId: unheard.localId, doubtSince: 5_000 }]);
  });

  it('an attempt with no outcome leaves a doubt from its time; one that certainly did not go leaves none', async () => {
    const { copy, clock, reopen } = setup();
    const [a, b] = [entry('Sent maybe'), entry('Never sent')];
    await copy.keep('local', randomUUID(), [a!, b!], true);
    clock.advance(5000);
    expect(await copy.attempt('local', a!.idempotencyKey)).toBe(true);
    await copy.attempt('local', b!.idempotencyKey);
    await copy.notSent('local', b!.idempotencyKey);
    clock.advance(5000);
    await copy.attempt('local', b!.idempotencyKey);
    await copy.notSent('local', b!.idempotencyKey);
    const doubts = (await reopen().read('local')).entries.map((e) => [e.animal.name, e.doubtSince]);
    expect(doubts).toEqual([
      ['Sent maybe', clock.now() - 5000],
      ['Never sent', null],
    ]);
    // a key the journal does not hold is not recorded
    expect(await copy.attempt('local', randomUUID())).toBe(false);
  });

  it('keeps the first doubt when a later attempt goes and certainly did not reach the service', async () => {
    const { copy, clock } = setup();
    const a = entry('Twice');
    await copy.keep('local', randomUUID(), [a], true);
    await copy.attempt('local', a.idempotencyKey);
    const first = clock.now();
    clock.advance(60_000);
    await copy.attempt('local', a.idempotencyKey);
    await copy.notSent('local', a.idempotencyKey);
    expect((await copy.read('local')).entries[0]?.doubtSince).toBe(first);
  });

  it('an edit (same entry, new key and payload) replaces what is kept and clears the old key’s doubt', async () => {
    const { copy } = setup();
    const first = entry('Refused');
    await copy.keep('local', randomUUID(), [first], true);
    await copy.attempt('local', first.idempotencyKey);
    const edited = { ...first, idempotencyKey: randomUUID(), animal: { name: 'Fixed', categoryId: '3' }, createdAt: 9 };
    await copy.keep('local', randomUUID(), [edited], true);
    expect((await copy.read('local')).entries).toEqual([{ ...edited, createdAt: first.createdAt, doubtSince: null }]);
    expect(await copy.acknowledgeKey('local', first.idempotencyKey, '5')).toBe(false);
  });

  it('an acknowledged or discarded entry is never open again; when none is left the file is empty', async () => {
    const { copy, dataDir, reopen } = setup();
    const [a, b] = [entry('Acked'), entry('Dropped')];
    await copy.keep('local', randomUUID(), [a!, b!], true);
    expect(await copy.acknowledgeKey('local', a!.idempotencyKey, '9007199254740993')).toBe(true);
    expect(names(await copy.read('local'))).toEqual(['Dropped']);
    expect(readFileSync(copy.pathOf('local'), 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
    expect(await copy.settle('local', b!.localId, { outcome: 'discarded' })).toBe(true);
    expect(readFileSync(join(dataDir, 'safety-copy', 'local.jsonl'), 'utf8')).toBe('');
    expect(await reopen().read('local')).toEqual({ entries: [], problems: [] });
    expect(await copy.settle('local', b!.localId, { outcome: 'discarded' })).toBe(false);
  });

  it('compaction keeps a batch still being kept (an import between two calls)', async () => {
    const { copy } = setup();
    const done = entry('Done');
    await copy.keep('local', randomUUID(), [done], true);
    const batch = randomUUID();
    await copy.keep('local', batch, [entry('Half')], false);
    await copy.settle('local', done.localId, { outcome: 'acknowledged', id: '1' });
    await copy.keep('local', batch, [entry('Rest')], true);
    expect(names(await copy.read('local'))).toEqual(['Half', 'Rest']);
  });

  it('keeps each profile apart and forgets a removed one', async () => {
    const { copy, reopen } = setup();
    await copy.keep('local', randomUUID(), [entry('Local one')], true);
    await copy.keep('staging', randomUUID(), [entry('Staging one')], true);
    await copy.forget('staging');
    expect(names(await reopen().read('local'))).toEqual(['Local one']);
    expect(names(await reopen().read('staging'))).toEqual([]);
  });

  it('says what reading found: a torn last line and a damaged one, the rest still read', async () => {
    const { copy, reopen } = setup();
    await copy.keep('local', randomUUID(), [entry('Rex')], true);
    await copy.keep('local', randomUUID(), [entry('Kitten')], true);
    const path = copy.pathOf('local');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[0] = lines[0]!.replace('Rex', 'Rez');
    await fs.writeFile(path, `${lines.join('\n')}{"torn`);
    const read = await reopen().read('local');
    expect(names(read)).toEqual(['Kitten']);
    expect(read.problems).toEqual([
      expect.stringContaining('was cut off'),
      expect.stringContaining('1 damaged line(s) of the safety copy of local were set aside'),
    ]);
  });

  it('a full disk refuses the entry (nothing kept) and the copy goes on once there is room', async () => {
    let full = true;
    const fullDisk: JournalFs = {
      ...fs,
      open: (async (p: string, flags?: string, mode?: number) => {
        const handle = await fs.open(p, flags, mode);
        const append = handle.appendFile.bind(handle);
        handle.appendFile = async (text, options) => {
          if (!full) return append(text, options);
          await append(String(text).slice(0, 10), options);
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        };
        return handle;
      }) as JournalFs['open'],
    };
    const { copy, reopen } = setup(fullDisk);
    await expect(copy.keep('local', randomUUID(), [entry('No room')], true)).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(names(await copy.read('local'))).toEqual([]);
    full = false;
    await copy.keep('local', randomUUID(), [entry('Room again')], true);
    expect(names(await reopen().read('local'))).toEqual(['Room again']);
  });
});

/**
 * Issue 31, item 10: the browser host hands over an earlier version's queue (electron/host/
 * earlier-origin.ts). Each entry is kept once, with its own ids, flagged as recovered; what the
 * journal knows already is never kept twice; one that may have been sent comes back in doubt.
 */
describe('an earlier version’s queue, recovered', () => {
  const recovered = (e: SafetyEntry, inDoubt = false) => ({ ...e, inDoubt });

  it('keeps each entry once, in one batch, flagged, with its own key; a new process reads it so', async () => {
    const { copy, clock, dataDir, reopen } = setup();
    const [olive, basil, sage] = [entry('Olive', 1), entry('Basil', 2), entry('Sage', 3)];
    const at = clock.now();
    expect(await copy.recover('local', [recovered(olive!), recovered(basil!, true), recovered(sage!)])).toEqual({
      kept: 3,
      known: 0,
    });
    const expected = [
      { ...olive, doubtSince: null, fromEarlierVersion: true },
      { ...basil, doubtSince: at, fromEarlierVersion: true },
      { ...sage, doubtSince: null, fromEarlierVersion: true },
    ];
    expect((await copy.read('local')).entries).toEqual(expected);
    expect((await reopen().read('local')).entries).toEqual(expected);
    // nothing but the entries' own fields reaches the file
    const lines = readFileSync(join(dataDir, 'safety-copy', 'local.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)).type)).toEqual([
      'kept',
      'kept',
      'kept',
      'batch_done',
      'attempt',
    ]);
    expect(lines.join('\n')).not.toMatch(/inDoubt/);
  });

  it('never keeps an entry twice: one the journal has (open or settled) is not kept again; an open one is flagged', async () => {
    const { copy, reopen } = setup();
    const [open, settled, fresh] = [entry('Open'), entry('Settled'), entry('Fresh')];
    await copy.keep('local', randomUUID(), [open!, settled!], true);
    await copy.settle('local', settled!.localId, { outcome: 'acknowledged', id: '41' });
    const report = await copy.recover('local', [recovered(open!), recovered(settled!), recovered(fresh!)]);
    expect(report).toEqual({ kept: 1, known: 2 });
    const read = await reopen().read('local');
    expect(read.entries.map((e) => [e.animal.name, e.fromEarlierVersion])).toEqual([
      ['Open', true],
      ['Fresh', true],
    ]);
    // the same hand over again (a crash before the browser deleted its copy): nothing more
    expect(await copy.recover('local', [recovered(open!), recovered(fresh!)])).toEqual({ kept: 0, known: 2 });
    expect((await copy.read('local')).entries).toHaveLength(2);
    // by its key too (an entry edited in the earlier version kept its localId, here its key is known)
    expect(
      await copy.recover('local', [recovered({ ...entry('Other'), idempotencyKey: fresh!.idempotencyKey })]),
    ).toEqual({
      kept: 0,
      known: 1,
    });
  });

  it('a recovered entry settles and compacts like any other', async () => {
    const { copy, dataDir } = setup();
    const olive = entry('Olive');
    await copy.recover('local', [recovered(olive)]);
    await copy.settle('local', olive.localId, { outcome: 'acknowledged', id: '7' });
    expect((await copy.read('local')).entries).toEqual([]);
    expect(readFileSync(join(dataDir, 'safety-copy', 'local.jsonl'), 'utf8')).toBe('');
  });
});
