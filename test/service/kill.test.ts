/**
 * The kill test: the CLI with `--data` is killed with SIGKILL at random (seeded) moments while
 * creating animals; after each kill the file must load and hold every acknowledged (201) creation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Animal } from '../../src/shared/records/animal';
import { decodeJson } from '../../src/shared/records/json-codec';
import { loadDataFile } from './index';
import { mulberry32, randomInt } from './prng';
import { tempFolder } from './test-helpers';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = resolve(import.meta.dirname, 'cli.ts');
const KILLS = 20;
const WORKERS = 4;

interface Started {
  child: ChildProcess;
  url: string;
  /** The CLI's stdout after the URL line (it reports the number of animals loaded). */
  banner: string[];
}

/**
 * The command that runs the CLI: a self-contained bundle made once with esbuild (tsx's own compiler),
 * which starts in a fraction of tsx's time; tsx itself when esbuild cannot be loaded.
 */
async function cliCommand(folder: string): Promise<string[]> {
  try {
    const esbuild = await import('esbuild');
    const outfile = join(folder, 'service-cli.mjs');
    const banner = {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    };
    await esbuild.build({
      entryPoints: [CLI],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile,
      banner,
      logLevel: 'silent',
    });
    return [outfile];
  } catch {
    return ['--import', 'tsx', CLI];
  }
}

async function startCli(command: string[], dataFile: string): Promise<Started> {
  const args = [...command, '--data', dataFile, '--key', 'k=enterprise:1000000:100000000'];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const banner: string[] = [];
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`service exited (${code}) before printing its URL: ${stderr}`);
  });
  const ready = new Promise<void>((resolveReady) => {
    lines.on('line', (line) => {
      banner.push(line);
      if (banner.length === 3) resolveReady();
    });
  });
  await Promise.race([ready, exited]);
  return { child, url: banner[0] ?? '', banner: banner.slice(1) };
}

async function createLoop(url: string, worker: number, acknowledged: Map<string, string>, stop: () => boolean) {
  for (let n = 0; !stop(); n += 1) {
    const name = `w${worker}-${n}-${Math.random().toString(36).slice(2, 8)}`;
    try {
      const response = await fetch(`${url}/pets`, {
        method: 'POST',
        headers: { Authorization: 'Bearer k', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      const text = await response.text();
      if (response.status === 201) acknowledged.set(Animal.parse(decodeJson(text)).id, name);
    } catch {
      return; // the process was killed: this creation was never acknowledged
    }
  }
}

describe('kill -9 while creating', () => {
  it(`never loses an acknowledged creation nor leaves a broken file (${KILLS} kills)`, async () => {
    const folder = await tempFolder();
    const command = await cliCommand(folder);
    const dataFile = join(folder, 'data.json');
    const random = mulberry32(20240611);
    const acknowledged = new Map<string, string>();
    let killedMidWrite = 0;
    for (let round = 0; round < KILLS; round += 1) {
      const { child, url } = await startCli(command, dataFile);
      let killed = false;
      const loops = Array.from({ length: WORKERS }, (_, worker) => createLoop(url, worker, acknowledged, () => killed));
      await delay(randomInt(random, 20, 150));
      killed = child.kill('SIGKILL');
      await once(child, 'exit').catch(() => {});
      await Promise.all(loops);
      const data = await loadDataFile(dataFile);
      expect(data, `round ${round}`).not.toBeNull();
      const onDisk = new Map(data?.animals.map((animal) => [animal.id, animal.name]));
      if (onDisk.size > acknowledged.size) killedMidWrite += 1;
      for (const [id, name] of acknowledged) expect(onDisk.get(id), `round ${round}, id ${id}`).toBe(name);
      expect(new Set(data?.animals.map((animal) => animal.id)).size).toBe(data?.animals.length);
    }
    const last = await startCli(command, dataFile);
    const count = Number(/animals: (\d+)/.exec(last.banner[1] ?? '')?.[1]);
    last.child.kill('SIGTERM');
    await once(last.child, 'exit');
    expect(acknowledged.size).toBeGreaterThan(KILLS);
    expect(count).toBeGreaterThanOrEqual(acknowledged.size);
    console.info(
      `kill test: ${KILLS} kills, ${acknowledged.size} acknowledged creations all kept, ${count} on disk, ${killedMidWrite} rounds with stored-but-unacknowledged creations`,
    );
  }, 120_000);
});
