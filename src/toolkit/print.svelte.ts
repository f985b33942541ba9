/**
 * The printable list of one profile: which animals (the list or saved view staff printed from,
 * or by default every available animal saved on this device), and printing it — `window.print()`
 * in the browser host, the `printPage` desktop channel (webContents.print) in Electron.
 */
import { t } from '../language';
import type { Animal } from '../shared/records/animal';
import type { AdoptionApi } from '../shared/app-api/client';
import { errorMessage } from '../shared/basics/errors';
import type { AnimalCache } from '../storage';

export interface PrintJob {
  /** The heading on every page, e.g. "Available animals". */
  title: string;
  /** Where the animals come from, e.g. "Saved on this device, last confirmed 14:05". */
  source: string;
  animals: readonly Animal[];
}

export class PrintStore {
  job = $state.raw<PrintJob | null>(null);
  error = $state<string | null>(null);
  // Kept as how to say it, so that it follows a change of language.
  #notice = $state<(() => string) | null>(null);

  constructor(
    private readonly api: AdoptionApi,
    private readonly cache: AnimalCache,
    private readonly win: Pick<Window, 'print'> = window,
  ) {}

  /** Set when printing did not happen (Electron says why; a browser does not tell), in the language shown. */
  get notice(): string | null {
    return this.#notice?.() ?? null;
  }

  /** What to print next (set by the screen the Print button is on). */
  use(job: PrintJob): void {
    this.job = job;
    this.error = null;
    this.#notice = null;
  }

  /** The default: every animal saved on this device that is available, by name. */
  async loadAvailable(): Promise<void> {
    try {
      const rows = await this.cache.all();
      const animals = rows
        .filter((row) => row.animal.status === 'available')
        .map((row) => row.animal)
        .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
      this.use({ title: t('toolkit.printAvailableTitle'), source: t('toolkit.printAvailableSource'), animals });
    } catch (error) {
      this.error = errorMessage(error);
    }
  }

  async print(): Promise<void> {
    this.#notice = null;
    const desktop = this.api.desktop;
    if (!desktop) {
      this.win.print();
      return;
    }
    const result = await desktop.printPage({});
    if (!result.ok) {
      const reason = result.error.message;
      this.#notice = () => t('toolkit.printNotPrinted', { reason });
    } else if (!result.data.printed) {
      const reason = result.data.reason;
      this.#notice = () => (reason ? t('toolkit.printNotPrintedBecause', { reason }) : t('toolkit.printCancelled'));
    }
  }
}
