/**
 * The Electron host's own channels (save dialog, printing) through the real main process
 * against the stand-in `electron`: sender checked, payload zod-parsed, dialog and print called
 * as Electron's docs describe (docs/api/dialog.md, docs/api/web-contents.md), file written whole.
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventBus } from '../../../electron/core/api/event-bus';
import { ipcName } from '../../../src/shared/app-api/api';
import { ok } from '../../../src/shared/app-api/result';
import { createElectronStandIn, type ElectronStandIn, FakeWebContents } from './electron-stand-in';

const standIn: { current: ElectronStandIn } = vi.hoisted(() => ({ current: null as unknown as ElectronStandIn }));
vi.mock('electron', async () => {
  const { electronModuleOf } = await import('./electron-stand-in');
  return electronModuleOf(() => standIn.current.module);
});

const { startMainProcess } = await import('../../../electron/main/main-process');

describe('desktop channels (Electron main, stand-in electron)', () => {
  let folder: string;

  async function start() {
    const router = { handle: async () => ok({}) };
    const main = startMainProcess({
      outDir: '/opt/adoption-desk/out/main',
      createCore: async () => ({ router, events: createEventBus(), dispose: () => undefined }),
    });
    await main.ready;
    const win = standIn.current.windows[0];
    if (!win) throw new Error('no window');
    const own = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
    const call = (channel: 'saveFile' | 'printPage', input: unknown, event: unknown = own) =>
      standIn.current.handlers.get(ipcName(channel))?.(event, input);
    return { win, call };
  }

  beforeEach(() => {
    standIn.current = createElectronStandIn();
    folder = mkdtempSync(join(tmpdir(), 'adoption-save-'));
    standIn.current.module.app.userData = folder;
    standIn.current.module.app.documents = join(folder, 'Documents');
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('saves through a modal save dialog opened in Documents, and writes the whole text', async () => {
    const { win, call } = await start();
    const target = join(folder, 'animals.csv');
    standIn.current.saveDialogs.answer = { canceled: false, filePath: target };
    const text = '\uFEFFname,category\r\nZoë,1\r\n';
    expect(await call('saveFile', { suggestedName: 'animals-local-2026-11-23.csv', text })).toEqual({
      ok: true,
      data: { saved: true, fileName: 'animals.csv' },
    });
    const [dialogCall] = standIn.current.saveDialogs.calls;
    expect(dialogCall?.window).toBe(win);
    expect(dialogCall?.options).toMatchObject({
      defaultPath: join(folder, 'Documents', 'animals-local-2026-11-23.csv'),
      filters: [{ name: 'CSV spreadsheet', extensions: ['csv'] }],
    });
    expect(readFileSync(target, 'utf8')).toBe(text);
    expect(readdirSync(folder).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });

  // Symbolic links need a privilege on Windows; the attack is another user's link in a shared POSIX folder.
  it.skipIf(process.platform === 'win32')(
    'never writes through a link planted at a temporary name beside the export (issue 31, item 7)',
    async () => {
      const { call } = await start();
      // A team folder another user may write to: they plant links at the names the export's
      // temporary file would have (`<target>.tmp-<pid>-<n>`), pointing at a file of the staff member.
      const team = join(folder, 'team');
      const victim = join(folder, 'bashrc');
      writeFileSync(victim, 'export PATH=$HOME/bin:$PATH\n');
      const target = join(team, 'animals.csv');
      mkdirSync(team);
      const planted = Array.from({ length: 50 }, (_, n) => `${target}.tmp-${process.pid}-${n + 1}`);
      for (const name of planted) symlinkSync(victim, name);

      standIn.current.saveDialogs.answer = { canceled: false, filePath: target };
      const text = 'name,category\r\nRex,1\r\n';
      expect(await call('saveFile', { suggestedName: 'animals.csv', text })).toEqual({
        ok: true,
        data: { saved: true, fileName: 'animals.csv' },
      });
      expect(readFileSync(victim, 'utf8')).toBe('export PATH=$HOME/bin:$PATH\n');
      expect(lstatSync(target).isSymbolicLink()).toBe(false);
      expect(readFileSync(target, 'utf8')).toBe(text);
      // the planted links are left as they were, and no temporary file of ours is left behind
      for (const name of planted) expect(readlinkSync(name)).toBe(victim);
      expect(
        readdirSync(team)
          .filter((name) => name.includes('.tmp-'))
          .sort(),
      ).toEqual(planted.map((name) => name.slice(team.length + 1)).sort());
    },
  );

  it('writes nothing when staff cancel the dialog, and says so', async () => {
    const { call } = await start();
    standIn.current.saveDialogs.answer = { canceled: true, filePath: '' };
    expect(await call('saveFile', { suggestedName: 'categories.json', text: '{}' })).toEqual({
      ok: true,
      data: { saved: false, fileName: null },
    });
    expect(standIn.current.saveDialogs.calls[0]?.options).toMatchObject({
      filters: [{ name: 'Category names', extensions: ['json'] }],
    });
  });

  it('says which file could not be written when the folder refuses it', async () => {
    const { call } = await start();
    standIn.current.saveDialogs.answer = { canceled: false, filePath: join(folder, 'missing', 'x.csv') };
    const answer = await call('saveFile', { suggestedName: 'x.csv', text: 'a' });
    expect(answer).toEqual({
      ok: false,
      error: { code: 'internal', message: expect.stringContaining('Could not save x.csv (ENOENT)') },
    });
  });

  it('refuses a payload the contract does not allow, and a foreign sender, before any dialog', async () => {
    const { call, win } = await start();
    for (const input of [
      { suggestedName: '../../etc/passwd.csv', text: 'a' },
      { suggestedName: 'a.exe', text: 'a' },
      { suggestedName: 'a.csv', text: 5 },
      null,
    ]) {
      expect(await call('saveFile', input)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    const stranger = { sender: new FakeWebContents(), senderFrame: win.webContents.mainFrame };
    expect(await call('saveFile', { suggestedName: 'a.csv', text: 'a' }, stranger)).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Unknown sender' },
    });
    expect(await call('printPage', {}, stranger)).toMatchObject({ ok: false });
    expect(standIn.current.saveDialogs.calls).toEqual([]);
    expect(win.webContents.printed).toEqual([]);
  });

  it('prints the window with the system dialog and reports a cancelled print', async () => {
    const { call, win } = await start();
    expect(await call('printPage', {})).toEqual({ ok: true, data: { printed: true, reason: null } });
    expect(win.webContents.printed).toEqual([
      { silent: false, printBackground: false, usePrinterDefaultPageSize: true },
    ]);
    win.webContents.printAnswer = [false, 'Print job canceled'];
    expect(await call('printPage', {})).toEqual({ ok: true, data: { printed: false, reason: 'Print job canceled' } });
  });
});
if (process.platform === 'win32')
  console.log('desktop channels: the planted-link export case skipped: symbolic links need a privilege on Windows');
