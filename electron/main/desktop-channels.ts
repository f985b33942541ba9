/**
 * The Electron host's own channels (`desktopApi` in src/shared/app-api/api.ts): saving a file the
 * renderer made (a CSV export, the category names) through the native save dialog, and printing
 * the window. Same rules as every other channel: the sender must be the app's own window and
 * main frame (ipc.ts), every payload is zod-parsed here, and the answer is a result value.
 *
 * Electron APIs, as docs/api/*.md of electron/electron describe them (Electron 45):
 * - `dialog.showSaveDialog(window, options)` resolves `{ canceled, filePath }`, `filePath` ''
 *   when cancelled; with `window` the dialog is modal to it (dialog.md). `showOverwriteConfirmation`
 *   is Linux-only; macOS and Windows always ask before replacing a file.
 * - `webContents.print(options, callback(success, failureReason))`: with `silent: false` the
 *   system's print dialog opens; staff cancelling gives `success` false, e.g. "Print job canceled"
 *   (web-contents.md). In Electron 45 a print without `pageSize` must set
 *   `usePrinterDefaultPageSize: true`, or print throws (electron.d.ts, WebContentsPrintOptions).
 */
import type { IpcMainInvokeEvent } from 'electron';
import { basename, join } from 'node:path';
import {
  DESKTOP_CHANNELS,
  desktopApi,
  type DesktopArgs,
  type DesktopChannel,
  type DesktopOutput,
  ipcName,
} from '../../src/shared/app-api/api';
import { describeIssues } from '../../src/shared/basics/errors';
import { t } from '../../src/shared/i18n';
import { err, ok, type Result } from '../../src/shared/app-api/result';
import { type IpcMainLike, type SenderCheck, senderTrusted, UNKNOWN_SENDER } from './ipc';

export type DesktopHandlers = {
  [C in DesktopChannel]: (args: DesktopArgs<C>) => Promise<Result<DesktopOutput<C>>>;
};

/** Registers the desktop channels; returns the function that removes them again. */
export function registerDesktopIpc(
  ipcMain: IpcMainLike,
  handlers: DesktopHandlers,
  isTrustedSender: SenderCheck,
): () => void {
  for (const channel of DESKTOP_CHANNELS) {
    ipcMain.handle(ipcName(channel), async (event: IpcMainInvokeEvent, input: unknown) => {
      if (!senderTrusted(isTrustedSender, event)) return UNKNOWN_SENDER;
      const parsed = desktopApi[channel].input.safeParse(input === undefined ? {} : input);
      if (!parsed.success) {
        return err(
          'invalid_request',
          t('main.invalidRequest', { channel, issues: describeIssues(parsed.error.issues, { max: 10 }) }),
        );
      }
      try {
        const handler = handlers[channel] as (args: unknown) => Promise<Result<unknown>>;
        return await handler(parsed.data);
      } catch (error) {
        // The error's own text only; never the payload (the file's contents).
        console.error(`desktop: ${channel} failed (${error instanceof Error ? error.message : typeof error})`);
        return err('internal', t('main.appFailed'));
      }
    });
  }
  return () => DESKTOP_CHANNELS.forEach((channel) => ipcMain.removeHandler(ipcName(channel)));
}

/** The parts of Electron and Node the handlers use (tests pass stand-ins). */
export interface DesktopDeps<W> {
  getWindow(): W | null;
  showSaveDialog(
    window: W,
    options: {
      title: string;
      defaultPath: string;
      filters: { name: string; extensions: string[] }[];
      properties: ('showOverwriteConfirmation' | 'createDirectory')[];
    },
  ): Promise<{ canceled: boolean; filePath?: string }>;
  print(
    window: W,
    options: { silent: false; printBackground: boolean; usePrinterDefaultPageSize: true },
    callback: (success: boolean, failureReason: string) => void,
  ): void;
  /** Writes the file whole or not at all (core/atomic-file.ts). */
  writeFile(path: string, text: string): Promise<void>;
  /** Where the dialog opens: the user's Documents folder. */
  documentsDir: string;
}

/** Made when answered: the text is in the core's language of the moment. */
const noWindow = () => err('internal', t('main.windowClosed'));

/**
 * Why a print did not happen, in the core's language. Electron says it in English: docs/api/web-contents.md
 * (\`contents.print\`, "Some possible \`failureReason\`s … include: 'Invalid printer settings', 'Print job
 * canceled', 'Print job failed'", from patches/chromium/printing.patch, PrintReasonFromPrintStatus);
 * those three are ours to translate, any other reason is shown as Electron gave it.
 */
function printFailure(reason: string): string {
  switch (reason) {
    case 'Invalid printer settings':
      return t('main.printInvalidSettings');
    case 'Print job canceled':
      return t('main.printCanceled');
    case 'Print job failed':
      return t('main.printFailed');
    default:
      return reason || t('main.notPrinted');
  }
}

export function createDesktopHandlers<W>(deps: DesktopDeps<W>): DesktopHandlers {
  return {
    async saveFile({ suggestedName, text }) {
      const window = deps.getWindow();
      if (!window) return noWindow();
      const csv = suggestedName.endsWith('.csv');
      const { canceled, filePath } = await deps.showSaveDialog(window, {
        title: csv ? t('main.saveSpreadsheetTitle') : t('main.saveCategoriesTitle'),
        defaultPath: join(deps.documentsDir, suggestedName),
        filters: [
          csv
            ? { name: t('main.spreadsheetFilter'), extensions: ['csv'] }
            : { name: t('main.categoriesFilter'), extensions: ['json'] },
        ],
        properties: ['showOverwriteConfirmation', 'createDirectory'],
      });
      if (canceled || !filePath) return ok({ saved: false, fileName: null });
      try {
        await deps.writeFile(filePath, text);
      } catch (error) {
        const why = error instanceof Error && 'code' in error ? String(error.code) : t('main.fileNotWritten');
        return err('internal', t('main.saveFailed', { file: basename(filePath), why }));
      }
      return ok({ saved: true, fileName: basename(filePath) });
    },

    async printPage() {
      const window = deps.getWindow();
      if (!window) return noWindow();
      return new Promise((resolve) => {
        deps.print(
          window,
          { silent: false, printBackground: false, usePrinterDefaultPageSize: true },
          (success, reason) => resolve(ok({ printed: success, reason: success ? null : printFailure(reason) })),
        );
      });
    },
  };
}
