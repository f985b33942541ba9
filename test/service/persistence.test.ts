import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFileError, loadDataFile, startService } from './index';
import { call, serve, tempFolder } from './test-helpers';

describe('persistence with --data', () => {
  it('keeps animals, the id counter and idempotency records across a restart', async () => {
    const folder = await tempFolder();
    const dataFile = join(folder, 'data.json');
    const first = await serve({ dataFile, seedAnimals: 5, idStart: '9007199254740990' });
    await call(`${first.url}/pets`, { body: { name: 'Kept', categoryId: 3 }, headers: { 'Idempotency-Key': 'k1' } });
    await first.stop();
    const loaded = await loadDataFile(dataFile);
    expect(loaded?.animals).toHaveLength(6);
    expect(loaded?.nextId).toBe('9007199254740996');
    expect(loaded?.idempotency.map((record) => record.key)).toEqual(['k1']);
    expect(await readFile(dataFile, 'utf8')).toContain('"id":9007199254740995');
    const second = await serve({ dataFile, seedAnimals: 5 });
    expect(second.animalCount()).toBe(6);
    const created = await call(`${second.url}/pets`, { body: { name: 'Next', categoryId: 3 } });
    expect(created.json).toMatchObject({ id: '9007199254740996' });
    const replay = await call(`${second.url}/pets`, {
      body: { name: 'Kept', categoryId: 3 },
      headers: { 'Idempotency-Key': 'k1' },
    });
    expect(replay.json).toMatchObject({ id: '9007199254740995', name: 'Kept' });
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('acknowledges a creation only once it is on disk, also under concurrent writes', async () => {
    const dataFile = join(await tempFolder(), 'data.json');
    const service = await serve({ dataFile });
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => call(`${service.url}/pets`, { body: { name: `A${i}`, categoryId: 1 } })),
    );
    const ids = answers.map((answer) => (answer.json as { id: string }).id);
    const onDisk = new Set((await loadDataFile(dataFile))?.animals.map((animal) => animal.id));
    expect(ids.every((id) => onDisk.has(id))).toBe(true);
    expect(onDisk.size).toBe(25);
  });

  it('refuses a broken file at start with a clear message and leaves it untouched', async () => {
    const folder = await tempFolder();
    for (const content of ['{"animals": [', '', '{"format":"other"}', '[]']) {
      const dataFile = join(folder, 'broken.json');
      await writeFile(dataFile, content);
      const start = startService({ dataFile, keys: { k: 'free' } });
      await expect(start).rejects.toThrow(DataFileError);
      await expect(start).rejects.toThrow(/not a valid service data file.*refusing to start/);
      expect(await readFile(dataFile, 'utf8')).toBe(content);
    }
  });

  it('keeps everything in memory without --data, and seeds only an empty store', async () => {
    const service = await serve({ seedAnimals: 12 });
    expect(service.dataFile).toBeUndefined();
    expect(service.animalCount()).toBe(12);
  });
});
