/**
 * Finds an animal entered twice: same name (trimmed, case- and accent-insensitive) and same
 * category as one saved on this device (the cache) or waiting in the outbox. It only informs:
 * staff decide (the add form asks once more, the import preview flags the row). Built once from
 * one read of the cache and the outbox; `find` is a map lookup, so 1,000 rows cost nothing.
 */
import type { Animal, NewAnimal } from '../shared/records/animal';
import type { CategoryLabels } from '../shared/records/categories';
import { formatNumber, t } from '../language';
import type { MessageKey } from '../shared/i18n';
import { matchKey } from '../shared/records/text-match';
import type { ProfileDb } from './db';
import type { OutboxEntry, OutboxState } from './outbox-records';

export type DuplicateMatch =
  /** An animal the service knows, by its id (cached, or sent from this device). */
  | { kind: 'known'; id: string }
  | { kind: 'outbox'; state: Exclude<OutboxState, 'sent'> }
  | { kind: 'file'; row: number };

type Named = Pick<NewAnimal, 'name' | 'categoryId'>;

function keyOf(animal: Named): string {
  return `${animal.categoryId}\u0000${matchKey(animal.name)}`;
}

export class DuplicateIndex {
  readonly #matches = new Map<string, DuplicateMatch[]>();

  /** From the animals saved on this device and the outbox's entries. */
  static of(animals: Iterable<Animal>, entries: Iterable<OutboxEntry>): DuplicateIndex {
    const index = new DuplicateIndex();
    const knownIds = new Set<string>();
    for (const animal of animals) {
      knownIds.add(animal.id);
      index.#add(animal, { kind: 'known', id: animal.id });
    }
    for (const entry of entries) {
      // Rows are read raw here; one a hand edit broke is the outbox's to set aside, not ours to trip on.
      if (typeof entry.animal?.name !== 'string') continue;
      // A sent entry is the service's animal now: named by its id (once, if the cache has it too).
      if (entry.state === 'sent') {
        if (entry.serverId && !knownIds.has(entry.serverId)) {
          index.#add(entry.animal, { kind: 'known', id: entry.serverId });
        }
      } else index.#add(entry.animal, { kind: 'outbox', state: entry.state });
    }
    return index;
  }

  /** Reads the profile's cache and outbox in one read transaction. */
  static async read(db: ProfileDb): Promise<DuplicateIndex> {
    const [rows, entries] = await db.transaction('r', db.animals, db.outbox, () =>
      Promise.all([db.animals.toArray(), db.outbox.orderBy('seq').toArray()]),
    );
    return DuplicateIndex.of(
      rows.map((row) => row.animal),
      entries,
    );
  }

  /** What this animal matches (empty when nothing); a copy, so later rows do not change it. */
  find(animal: Named): DuplicateMatch[] {
    return [...(this.#matches.get(keyOf(animal)) ?? [])];
  }

  /** Remembers a row of a file being imported, so later rows of the same file are flagged too. */
  addFileRow(animal: Named, row: number): void {
    this.#add(animal, { kind: 'file', row });
  }

  #add(animal: Named, match: DuplicateMatch): void {
    const key = keyOf(animal);
    const list = this.#matches.get(key);
    if (list) list.push(match);
    else this.#matches.set(key, [match]);
  }
}

const STATE_WORDS = {
  queued: 'storage.duplicateQueued',
  sending: 'storage.duplicateSending',
  needs_attention: 'storage.duplicateNeedsAttention',
  check_needed: 'storage.duplicateCheckNeeded',
} as const satisfies Record<Exclude<OutboxState, 'sent'>, MessageKey>;

/**
 * "ID 41 / waiting to send", "row 4 of this file": each kind of match once, ids up to three, in
 * the current language (the import preview and the add form say it once, when they ask).
 */
export function describeMatches(matches: readonly DuplicateMatch[]): string {
  const ids = matches.flatMap((match) => (match.kind === 'known' ? [t('storage.duplicateId', { id: match.id })] : []));
  const states = [
    ...new Set(matches.flatMap((match) => (match.kind === 'outbox' ? [t(STATE_WORDS[match.state])] : []))),
  ];
  // Row numbers as a spreadsheet shows them: no grouping ("row 1234").
  const rows = matches.flatMap((match) =>
    match.kind === 'file' ? [formatNumber(match.row, { useGrouping: false })] : [],
  );
  const parts = ids.length > 3 ? [...ids.slice(0, 3), t('storage.duplicateMore', { count: ids.length - 3 })] : ids;
  parts.push(...states);
  if (rows.length > 0) parts.push(t('storage.duplicateRows', { count: rows.length, rows: rows.join(', ') }));
  return parts.join(' / ');
}

/** The add form's question: "Kitten, Cats is already saved on this device (ID 41 / waiting to send). Add another?" */
export function duplicateQuestion(animal: Named, matches: readonly DuplicateMatch[], labels: CategoryLabels): string {
  return t('storage.duplicateQuestion', {
    name: animal.name,
    category: labels.describe(animal.categoryId),
    matches: describeMatches(matches),
  });
}
