/**
 * A spreadsheet import: choose a CSV file, see every row checked (row number, problems,
 * possible duplicates), confirm, and the valid rows go into the outbox in file order, all in one
 * transaction. The count is said only once they are on disk. A file that cannot be imported gets
 * one message and changes nothing.
 */
import { t } from '../language';
import type { NewAnimal } from '../shared/records/animal';
import type { CategoryLabels } from '../shared/records/categories';
import { DuplicateIndex, type ProfileDb } from '../storage';
import { decodeCsvBytes, sizeProblem } from './csv-file';
import { type ImportPreview, type ImportRow, previewCsv } from './csv-import';

export type ImportState = 'idle' | 'reading' | 'preview' | 'saving' | 'done';

export type EnqueueMany = (
  animals: readonly NewAnimal[],
) => Promise<{ ok: true; count: number } | { ok: false; message: string }>;

export class ImportStore {
  state = $state<ImportState>('idle');
  fileName = $state<string | null>(null);
  /** Why the chosen file cannot be imported (nothing changed). */
  problem = $state<string | null>(null);
  preview = $state.raw<ImportPreview | null>(null);
  /** Staff chose to add the rows that look like animals already on this device too. */
  includeDuplicates = $state(false);
  // Kept as how to say them, so that they follow a change of language.
  #message = $state<(() => string) | null>(null);
  #failure = $state<(() => string) | null>(null);
  readonly rows: ImportRow[] = $derived(this.preview?.rows ?? []);
  readonly valid: ImportRow[] = $derived(this.rows.filter((row) => row.animal !== null));
  readonly invalid: ImportRow[] = $derived(this.rows.filter((row) => row.animal === null));
  readonly flagged: ImportRow[] = $derived(this.valid.filter((row) => row.duplicates.length > 0));
  readonly toQueue: ImportRow[] = $derived(
    this.includeDuplicates ? this.valid : this.valid.filter((row) => row.duplicates.length === 0),
  );
  #generation = 0;

  /** What the confirmed import did, once it is on disk, in the language shown. */
  get message(): string | null {
    return this.#message?.() ?? null;
  }

  /** Why the confirmed rows could not be saved (nothing was added), in the language shown. */
  get failure(): string | null {
    return this.#failure?.() ?? null;
  }

  constructor(
    private readonly db: ProfileDb,
    private readonly labels: () => CategoryLabels,
    private readonly enqueueMany: EnqueueMany,
  ) {}

  /** Reads and checks a chosen file (a newer choice wins over one still being read). */
  async choose(file: File): Promise<void> {
    const generation = ++this.#generation;
    this.reset();
    this.fileName = file.name;
    const tooLarge = sizeProblem(file.size);
    if (tooLarge) return this.#refuse(tooLarge);
    this.state = 'reading';
    let bytes: Uint8Array;
    let index: DuplicateIndex;
    try {
      [bytes, index] = await Promise.all([
        file.arrayBuffer().then((b) => new Uint8Array(b)),
        DuplicateIndex.read(this.db),
      ]);
    } catch (error) {
      if (generation === this.#generation) this.#refuse(t('toolkit.fileUnreadable', { reason: String(error) }));
      return;
    }
    if (generation !== this.#generation) return;
    const decoded = decodeCsvBytes(bytes);
    if (!decoded.ok) return this.#refuse(decoded.message);
    const preview = previewCsv(decoded.text, { labels: this.labels(), duplicates: index });
    if (!preview.ok) return this.#refuse(preview.message);
    this.preview = preview;
    this.state = 'preview';
  }

  /** Staff confirmed: the rows to queue go into the outbox, in file order. */
  async confirm(): Promise<void> {
    if (this.state !== 'preview') return;
    const rows = this.toQueue;
    if (rows.length === 0) return;
    this.state = 'saving';
    this.#failure = null;
    const saved = await this.enqueueMany(rows.map((row) => row.animal as NewAnimal));
    if (!saved.ok) {
      this.state = 'preview';
      const reason = saved.message;
      this.#failure = () => t('toolkit.importNothingAdded', { reason });
      return;
    }
    const left = this.rows.length - saved.count;
    const { count } = saved;
    const file = this.fileName ?? '';
    this.#message = () => {
      const said = t('toolkit.importSaved', { count, file });
      return left > 0 ? `${said} ${t('toolkit.importLeftOut', { count: left })}` : said;
    };
    this.state = 'done';
  }

  reset(): void {
    this.state = 'idle';
    this.fileName = null;
    this.problem = null;
    this.preview = null;
    this.includeDuplicates = false;
    this.#message = null;
    this.#failure = null;
  }

  #refuse(problem: string): void {
    this.problem = t('toolkit.importRefused', { problem });
    this.preview = null;
    this.state = 'idle';
  }
}
