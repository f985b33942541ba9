/**
 * Hands a file the renderer made (a CSV export, the category names) to staff: in Electron
 * through the native save dialog (the `saveFile` desktop channel, electron/main), in the browser
 * host as a download (a Blob and `<a download>`; the host's CSP allows it as it is: a download is
 * no fetch, script or frame, so no directive is loosened). Says what happened in `message`.
 */
import type { AdoptionApi } from '../shared/client';

/** How long a download's object URL is kept before it is let go (the browser has read it by then). */
const REVOKE_AFTER_MS = 60_000;

export class FileExportStore {
  busy = $state(false);
  message = $state<string | null>(null);
  failed = $state(false);

  constructor(
    private readonly api: AdoptionApi,
    private readonly doc: Document = document,
  ) {}

  /** Offers `text` as the file `suggestedName` (`.csv` or `.json`); `what` says what it holds ("40 animals"). */
  async save(suggestedName: string, text: string, what: string): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.message = null;
    this.failed = false;
    try {
      const desktop = this.api.desktop;
      if (!desktop) {
        this.#download(suggestedName, text);
        this.message = `${capitalise(what)} exported as ${suggestedName} (in your browser's downloads).`;
        return true;
      }
      const result = await desktop.saveFile({ suggestedName, text });
      if (!result.ok) {
        this.failed = true;
        this.message = `Not exported: ${result.error.message}`;
        return false;
      }
      this.message = result.data.saved
        ? `${capitalise(what)} saved as ${result.data.fileName ?? suggestedName}.`
        : 'Not exported: the save was cancelled.';
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
