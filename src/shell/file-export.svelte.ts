/**
 * Hands a file the renderer made (a CSV export, the category names) to staff: in Electron
 * through the native save dialog (the `saveFile` desktop channel, electron/main), in the browser
 * host as a download (a Blob and `<a download>`; the host's CSP allows it as it is: a download is
 * no fetch, script or frame, so no directive is loosened). Says what happened in `message`.
 */
import { t } from '../language';
import type { AdoptionApi } from '../shared/app-api/client';

/** How long a download's object URL is kept before it is let go (the browser has read it by then). */
const REVOKE_AFTER_MS = 60_000;

export class FileExportStore {
  busy = $state(false);
  failed = $state(false);
  // Kept as how to say it, so it follows the language shown.
  #message = $state<(() => string) | null>(null);

  constructor(
    private readonly api: AdoptionApi,
    private readonly doc: Document = document,
  ) {}

  /** What the last export did, in the language shown. */
  get message(): string | null {
    return this.#message?.() ?? null;
  }

  /** Adds a sentence after what the last export did ("The 2 waiting to send are not in it: …"). */
  addNote(note: () => string): void {
    const said = this.#message;
    if (said) this.#message = () => `${said()} ${note()}`;
  }

  /**
   * Offers `text` as the file `suggestedName` (`.csv` or `.json`); `what` says what it holds
   * ("40 animals"), in the language shown: a function of it (`() => t(…)`) follows a change of language.
   */
  async save(suggestedName: string, text: string, what: string | (() => string)): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.#message = null;
    this.failed = false;
    const holds = () => capitalise(typeof what === 'string' ? what : what());
    try {
      const desktop = this.api.desktop;
      if (!desktop) {
        this.#download(suggestedName, text);
        this.#message = () => t('shell.exportDownloaded', { what: holds(), fileName: suggestedName });
        return true;
      }
      const result = await desktop.saveFile({ suggestedName, text });
      if (!result.ok) {
        this.failed = true;
        const { message } = result.error;
        this.#message = () => t('shell.exportFailed', { reason: message });
        return false;
      }
      const fileName = result.data.fileName ?? suggestedName;
      this.#message = result.data.saved
        ? () => t('shell.exportSaved', { what: holds(), fileName })
        : () => t('shell.exportCancelled');
      return result.data.saved;
    } finally {
      this.busy = false;
    }
  }

  #download(name: string, text: string): void {
    const type = name.endsWith('.json') ? 'application/json' : 'text/csv;charset=utf-8';
    const url = URL.createObjectURL(new Blob([text], { type }));
    const link = this.doc.createElement('a');
    link.href = url;
    link.download = name;
    link.hidden = true;
    this.doc.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
