/**
 * The simulated world itself (test/sim/world): a disk that keeps only what was fsynced through a
 * power cut, tears the write under way when the process dies and refuses writes when full; a
 * loop whose timers, wall clock and chance are its own; links that keep each sender's order; Web
 * Locks granted one at a time. The simulator's verdicts are only as good as these.
 */
import { constants } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JournalFile } from '../../electron/core/safety-copy/journal-file';
import { SimLockManager } from './world/browser';
import { Disk } from './world/disk';
import { Link } from './world/links';
import { SimLoop } from './world/loop';
import { Rng } from './world/rng';

const alive = () => ({ name: 'core', dead: false });
const scheduler = () => fc.sample(fc.scheduler(), { seed: 1, numRuns: 1 })[0]!;

function disk(seed = 1, crashed: (kind: string) => void = () => {}) {
  return new Disk(new Rng(seed), { crashed });
}

describe('the simulated disk', () => {
  it('keeps through a power cut what was fsynced, file and folder, and no more', async () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const d = disk(seed);
      const fs = d.view(alive());
      await fs.mkdir('/sim-disk/a/data', { recursive: true });
      const synced = await fs.open('/sim-disk/a/data/j', 'wx');
      await synced.appendFile('one\n');
      await synced.sync();
      await (await fs.open('/sim-disk/a/data', 'r')).sync();
      await synced.appendFile('two\n'); // written, never fsynced
      const loose = await fs.open('/sim-disk/a/data/k', 'wx'); // its folder never fsynced after
      await loose.appendFile('x\n');
      await loose.sync();
      d.powerCut();
      const text = await fs.readFile('/sim-disk/a/data/j');
      expect(text.startsWith('one\n')).toBe(true);
      expect('one\ntwo\n'.startsWith(text)).toBe(true);
      expect(d.durableFiles().get('/sim-disk/a/data/j')).toBe(text);
    }
    // Over seeds, the unsynced folder entry and the unsynced bytes are sometimes lost.
    const outcomes = new Set<string>();
    for (let seed = 1; seed <= 40; seed += 1) {
      const d = disk(seed);
      const fs = d.view(alive());
      await fs.mkdir('/sim-disk/a', { recursive: true });
      const file = await fs.open('/sim-disk/a/k', 'wx');
      await file.appendFile('x\n');
      await file.sync();
      d.powerCut();
      outcomes.add(d.liveFiles().has('/sim-disk/a/k') ? 'kept' : 'lost');
    }
    expect([...outcomes].sort()).toEqual(['kept', 'lost']);
  });

  it('tears the write under way when the armed crash goes off, and the dead process does nothing more', async () => {
    let crashed = '';
    const d = disk(3, (kind) => (crashed = kind));
    const owner = alive();
    const fs = d.view(owner);
    await fs.mkdir('/sim-disk/a', { recursive: true });
    const file = await fs.open('/sim-disk/a/j', 'wx');
    d.armCrash(1, 'kill');
    let answered = false;
    void file.appendFile('a long line that will not all be written\n').then(() => (answered = true));
    await Promise.resolve();
    expect(crashed).toBe('kill');
    owner.dead = true;
    expect(answered).toBe(false);
    const text = d.liveFiles().get('/sim-disk/a/j') ?? '';
    expect('a long line that will not all be written\n'.startsWith(text)).toBe(true);
    expect(text.endsWith('\n')).toBe(false);
    // The journal's own reading drops the torn tail.
    const read = await new JournalFile('/sim-disk/a/j', d.view(alive()).asJournalFs()).read();
    expect(read.records).toEqual([]);
  });

  it("has the calls of the data folder's lock: exclusive names, hard links, private modes", async () => {
    const d = disk();
    const fs = d.view(alive());
    await fs.mkdir('/sim-disk/a/data', { recursive: true });
    await fs.writeFile('/sim-disk/a/data/draft', 'pid 1\n', { flag: 'wx' });
    await expect(fs.writeFile('/sim-disk/a/data/draft', 'pid 2\n', { flag: 'wx' })).rejects.toMatchObject({
      code: 'EEXIST',
    });
    await fs.link('/sim-disk/a/data/draft', '/sim-disk/a/data/in-use.lock');
    await expect(fs.link('/sim-disk/a/data/draft', '/sim-disk/a/data/in-use.lock')).rejects.toMatchObject({
      code: 'EEXIST',
    });
    await fs.rm('/sim-disk/a/data/draft');
    expect(await fs.readFile('/sim-disk/a/data/in-use.lock')).toBe('pid 1\n');
    // atomic-file.ts's temporary file: O_EXCL refuses a name that is taken.
    const exclusive = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
    await expect(fs.open('/sim-disk/a/data/in-use.lock', exclusive)).rejects.toMatchObject({ code: 'EEXIST' });
    const stats = await fs.lstat('/sim-disk/a/data');
    expect(stats.isDirectory() && (stats.mode & 0o077) === 0).toBe(true);
    expect(await fs.readdir('/sim-disk/a/data', { withFileTypes: true })).toMatchObject([{ name: 'in-use.lock' }]);
    await expect(fs.lstat('/sim-disk/a/data/gone')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses writes with ENOSPC when full, after writing part of them', async () => {
    const d = disk(5);
    const fs = d.view(alive());
    await fs.mkdir('/sim-disk/a', { recursive: true });
    const file = await fs.open('/sim-disk/a/j', 'wx');
    d.full = true;
    await expect(file.appendFile('refused\n')).rejects.toMatchObject({ code: 'ENOSPC' });
    expect('refused\n'.startsWith(d.liveFiles().get('/sim-disk/a/j') ?? '')).toBe(true);
  });
});

describe('the loop', () => {
  it('fires timers in order on its own clock; a clock jump moves the wall clock, not the timers', async () => {
    const loop = new SimLoop(new Rng(1).next, scheduler());
    const fired: string[] = [];
    loop.setTimeout(() => fired.push(`b ${loop.mono}`), 200);
    loop.setTimeout(() => fired.push(`a ${loop.mono}`), 100);
    const wall = loop.now();
    loop.jump(-3_600_000);
    await loop.advance(150);
    expect(fired).toEqual(['a 100']);
    expect(loop.now()).toBe(wall - 3_600_000 + 150);
    expect(loop.serviceNow()).toBe(wall + 150);
    await loop.advance(100);
    expect(fired).toEqual(['a 100', 'b 200']);
  });

  it('while installed, Date, performance.now, the timers, Math.random and crypto.randomUUID are its own', async () => {
    const rng = new Rng(9);
    const loop = new SimLoop(rng.next, scheduler());
    loop.install(() => rng.uuid());
    try {
      const at = Date.now();
      const elapsed = performance.now();
      let ran = false;
      setTimeout(() => (ran = true), 60_000);
      await loop.advance(59_999);
      expect(ran).toBe(false);
      await loop.advance(1);
      expect(ran).toBe(true);
      expect(Date.now()).toBe(at + 60_000);
      expect(new Date().getTime()).toBe(at + 60_000);
      loop.jump(-3_600_000); // the wall clock set back: elapsed time does not move
      expect(Date.now()).toBe(at + 60_000 - 3_600_000);
      expect(performance.now()).toBe(elapsed + 60_000);
      expect(crypto.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      loop.uninstall();
    }
    expect(Date.now()).toBeGreaterThan(Date.UTC(2025, 0, 1));
    expect(Object.hasOwn(performance, 'now')).toBe(false);
    expect(performance.now()).toBeGreaterThan(0);
  });

  it('delivers the messages of a link in the order sent, whatever the scheduler picks', async () => {
    const loop = new SimLoop(new Rng(1).next, scheduler());
    const got: string[] = [];
    const one = new Link(loop, 'one');
    const two = new Link(loop, 'two');
    for (let i = 0; i < 5; i += 1) {
      one.post(() => got.push(`one ${i}`));
      two.post(() => got.push(`two ${i}`));
    }
    await loop.settle();
    expect(got.filter((m) => m.startsWith('one'))).toEqual(['one 0', 'one 1', 'one 2', 'one 3', 'one 4']);
    expect(got.filter((m) => m.startsWith('two'))).toEqual(['two 0', 'two 1', 'two 2', 'two 3', 'two 4']);
  });
});

describe('Web Locks of one origin', () => {
  it('grants a lock to one holder at a time, in the order asked; an aborted request never gets it', async () => {
    const locks = new SimLockManager();
    const order: string[] = [];
    const releases: Array<() => void> = [];
    const hold = (name: string, signal?: AbortSignal) =>
      locks
        .request('sync', signal ? { signal } : {}, () => {
          order.push(name);
          return new Promise<void>((release) => releases.push(release));
        })
        .catch((error: unknown) => order.push(`${name} ${(error as Error).name}`));
    void hold('a');
    const abort = new AbortController();
    void hold('b', abort.signal);
    void hold('c');
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['a']);
    abort.abort();
    await Promise.resolve();
    releases[0]!();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(order).toEqual(['a', 'b AbortError', 'c']);
  });
});
