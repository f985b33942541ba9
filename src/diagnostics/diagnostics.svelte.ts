/**
 * The core's request log (last 200 requests, no secrets) and "copy diagnostics" for support. The
 * copied report is for developers: English and machine-readable whatever the language shown;
 * only the sentences on screen are translated.
 */
import { t } from '../language';
import type { AdoptionApi } from '../shared/app-api/client';
import type { DiagnosticEntry } from '../shared/app-api/diagnostics';

export class DiagnosticsStore {
  entries = $state<DiagnosticEntry[]>([]);
  error = $state<string | null>(null);
  // Kept as how to say it, so that it follows a change of language.
  #copyMessage = $state<(() => string) | null>(null);
  /** The report to copy by hand when the clipboard could not be used. */
  copyFallback = $state<string | null>(null);

  constructor(
    private readonly api: AdoptionApi,
    private readonly clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard,
  ) {}

  /** What "Copy diagnostics" did, in the language shown. */
  get copyMessage(): string | null {
    return this.#copyMessage?.() ?? null;
  }

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
      const count = this.entries.length;
      this.#copyMessage = () => t('diagnostics.copied', { count });
      this.copyFallback = null;
    } catch {
      this.#copyMessage = () => t('diagnostics.clipboardFailed');
      this.copyFallback = this.report();
    }
  }
}
