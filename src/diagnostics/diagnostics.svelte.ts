/** The core's request log (last 200 requests, no secrets) and "copy diagnostics" for support. */
import type { AdoptionApi } from '../shared/client';
import type { DiagnosticEntry } from '../shared/diagnostics';

export class DiagnosticsStore {
  entries = $state<DiagnosticEntry[]>([]);
  error = $state<string | null>(null);
  copyMessage = $state<string | null>(null);
  /** The report to copy by hand when the clipboard could not be used. */
  copyFallback = $state<string | null>(null);

  constructor(
    private readonly api: AdoptionApi,
    private readonly clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard,
  ) {}

  async load(): Promise<void> {
    const result = await this.api.diagnostics({});
    if (!result.ok) {
      this.error = result.error.message;
      return;
    }
    this.entries = [...result.data.entries].sort((a, b) => b.at - a.at);
    this.error = null;
  }

  /** The text support receives: the app's host kind and the request log as JSON. */
  report(): string {
    return JSON.stringify({ app: 'Adoption Desk', host: this.api.host, entries: this.entries }, null, 2);
  }

  async copy(): Promise<void> {
    await this.load();
    try {
      if (!this.clipboard) throw new Error('no clipboard');
      await this.clipboard.writeText(this.report());
      this.copyMessage = `Copied ${this.entries.length} requests to the clipboard.`;
      this.copyFallback = null;
    } catch {
      this.copyMessage = 'Could not use the clipboard: select the text below and copy it.';
      this.copyFallback = this.report();
    }
  }
}
