/**
 * `--data FILE`: animals, the id counter and idempotency records survive restarts. Every save is
 * atomic (temp file, fsync, rename, fsync of the folder), so a `kill -9` at any moment leaves the
 * previous or the new state. A broken file at start is refused, never overwritten.
 */
import { open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { Int64, AnimalStatus } from '../../src/shared/records/animal';
import { decodeJson, encodeJson } from '../../src/shared/records/json-codec';
import type { IdempotencyRecord } from './idempotency';
import type { StoredAnimal } from './store';

export const DATA_FORMAT = 'adoption-service-data';

export interface ServiceData {
  nextId: string;
  animals: StoredAnimal[];
  idempotency: IdempotencyRecord[];
}

const DataFileSchema = z.object({
  format: z.literal(DATA_FORMAT),
  version: z.literal(1),
  nextId: Int64,
  animals: z.array(z.object({ id: Int64, name: z.string(), categoryId: Int64, status: AnimalStatus })),
  idempotency: z.array(
    z.object({
      scope: z.string(),
      key: z.string(),
      fingerprint: z.string(),
      createdAt: z.number(),
      response: z.object({ status: z.number().int(), body: z.string() }),
    }),
  ),
});

export class DataFileError extends Error {
  override name = 'DataFileError';
}

/** Reads a data file; null when it does not exist. Throws `DataFileError` when it is not a valid one. */
export async function loadDataFile(file: string): Promise<ServiceData | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DataFileError(`cannot read data file ${file}: ${(error as Error).message}`);
  }
  let parsed: z.infer<typeof DataFileSchema>;
  try {
    parsed = DataFileSchema.parse(decodeJson(text));
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error).split('\n')[0] : (error as Error).message;
    throw new DataFileError(
      `data file ${file} is not a valid service data file (${reason}); refusing to start and leaving it untouched: move it away or pass another --data`,
    );
  }
  return { nextId: parsed.nextId, animals: parsed.animals, idempotency: parsed.idempotency };
}

/** Writes `data` atomically to `file`. */
export async function writeDataFile(file: string, data: ServiceData): Promise<void> {
  const text = encodeJson({ format: DATA_FORMAT, version: 1, ...data });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await syncFolder(dirname(file));
}

/**
 * Fsyncs the folder, so that the rename is on disk too. Not on Windows: a folder opens there (libuv
 * opens with FILE_FLAG_BACKUP_SEMANTICS) but FlushFileBuffers refuses a handle opened for reading
 * (EPERM; deps/uv/src/win/fs.c `fs__open`, `fs__sync_impl`), and the rename is one MoveFileExW.
 */
async function syncFolder(path: string): Promise<void> {
  if (process.platform === 'win32') return;
  const folder = await open(path, 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** Removes temp files a killed process left beside `file`. */
export async function removeStaleTempFiles(file: string): Promise<void> {
  const prefix = `.${basename(file)}.`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(prefix) && name.endsWith('.tmp')) await unlink(join(dirname(file), name)).catch(() => {});
  }
}

/**
 * Serialises saves: `save()` resolves once a snapshot taken after the call is on disk. Saves
 * requested while one is running are coalesced into the next one.
 */
export class SaveQueue {
  private running: Promise<void> | null = null;
  private pending: Promise<void> | null = null;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => ServiceData,
  ) {}

  save(): Promise<void> {
    if (this.pending) return this.pending;
    if (!this.running) {
      this.running = this.write().finally(() => (this.running = null));
      return this.running;
    }
    const after = this.running.catch(() => {});
    this.pending = after.then(() => {
      this.pending = null;
      return this.save();
    });
    return this.pending;
  }

  /** Waits for every requested save. */
  async flush(): Promise<void> {
    while (this.running || this.pending) await (this.pending ?? this.running)?.catch(() => {});
  }

  private write(): Promise<void> {
    return writeDataFile(this.file, this.snapshot());
  }
}
