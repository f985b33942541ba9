/**
 * A full disk at start (the event-day simulator met 964 such starts in 2,000 days): the data
 * folder's lock file cannot be written, so the app does not start. Staff must be told the disk is
 * full and that nothing saved is lost, not to check that the folder exists and is theirs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as FolderLock from '../../../../electron/core/data-folder/folder-lock';

vi.mock('../../../../electron/core/data-folder/folder-lock', async (original) => ({
  ...(await original<typeof FolderLock>()),
  lockDataFolder: async () => {
    throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: process.env.DISK_FULL_CODE });
  },
}));

const { openDataFolder } = await import('../../../../electron/core/data-folder/open-data-folder');
const { useLanguage } = await import('../../../../src/shared/i18n');

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  await useLanguage('en');
});

async function startFailure(code: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'adoption-disk-full-'));
  folders.push(dir);
  process.env.DISK_FULL_CODE = code;
  const error = await openDataFolder(dir).then(
    () => null,
    (failure: unknown) => failure,
  );
  delete process.env.DISK_FULL_CODE;
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('a full disk when the app starts', () => {
  it.each(['ENOSPC', 'EDQUOT'])(
    '%s: says the disk is full, that nothing saved is lost, and what to do',
    async (code) => {
      const message = await startFailure(code);
      expect(message).toMatch(/^The disk that holds the data folder .+ is full, so Adoption Desk did not start\./);
      expect(message).toContain('Nothing saved in it is lost');
      expect(message).toContain('Free some space');
      expect(message).not.toContain('may write');
    },
  );

  it('in Spanish too', async () => {
    await useLanguage('es');
    expect(await startFailure('ENOSPC')).toMatch(/^El disco .+ está lleno/);
  });
});
