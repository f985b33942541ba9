/**
 * The saved animals prepared for the "Saved on this device" view: sorted once per data change
 * (by name and by id) and split by status, each with its animals' search keys, so a sort,
 * status or search change only picks or filters a ready array (no sorting, no normalising).
 * Built chunk by chunk (`SavedIndexBuilder.add`): each chunk is sorted on its own and merged
 * in, so no single step costs more than a merge of what is already read.
 */
import type { AnimalStatus } from '../shared/records/animal';
import type { CachedAnimal } from '../storage';
import { compareNames, searchKey, type SortKey } from './animal-sorting';

export type SavedStatusFilter = AnimalStatus | 'all';
type IndexedSort = 'name' | 'id';

/** A saved animal with what sorting and search need, computed once. */
export interface SavedEntry {
  row: CachedAnimal;
  key: string;
  id: bigint;
}

/** The rows of one sort order and status filter, with their search keys (same positions). */
interface View {
  rows: CachedAnimal[];
  keys: string[];
}

const byId = (a: SavedEntry, b: SavedEntry): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byName = (a: SavedEntry, b: SavedEntry): number =>
  compareNames(a.row.animal.name, b.row.animal.name) || byId(a, b);

function toEntry(row: CachedAnimal): SavedEntry {
  return { row, key: searchKey(row.animal.name), id: BigInt(row.animal.id) };
}

/** Merges two arrays sorted by `compare` into a new sorted one (linear). */
function merge(
  a: readonly SavedEntry[],
  b: readonly SavedEntry[],
  compare: (x: SavedEntry, y: SavedEntry) => number,
): SavedEntry[] {
  if (a.length === 0) return b.slice();
  if (b.length === 0) return a.slice();
  const out: SavedEntry[] = new Array<SavedEntry>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compare(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

function views(sorted: readonly SavedEntry[]): Record<SavedStatusFilter, View> {
  const empty = (): View => ({ rows: [], keys: [] });
  const result: Record<SavedStatusFilter, View> = { all: empty(), available: empty(), pending: empty(), sold: empty() };
  for (const entry of sorted) {
    result.all.rows.push(entry.row);
    result.all.keys.push(entry.key);
    const status = entry.row.animal.status;
    if (status) {
      result[status].rows.push(entry.row);
      result[status].keys.push(entry.key);
    }
  }
  return result;
}

export class SavedIndex {
  static readonly empty = new SavedIndex([], []);

  readonly size: number;
  /** The newest confirmation among the animals, null when there are none. */
  readonly newestConfirmedAt: number | null;
  readonly #views: Record<IndexedSort, Record<SavedStatusFilter, View>>;

  /** From the same entries sorted by name and by id (see SavedIndexBuilder). */
  constructor(sortedByName: readonly SavedEntry[], sortedById: readonly SavedEntry[]) {
    this.size = sortedById.length;
    this.#views = { name: views(sortedByName), id: views(sortedById) };
    let newest: number | null = null;
    for (const entry of sortedById) {
      if (newest === null || entry.row.confirmedAt > newest) newest = entry.row.confirmedAt;
    }
    this.newestConfirmedAt = newest;
  }

  /** An index of a few rows at once (a first screen, a test). */
  static of(rows: readonly CachedAnimal[]): SavedIndex {
    const builder = new SavedIndexBuilder();
    builder.add(rows);
    return builder.build();
  }

  /**
   * The animals with `status` whose name contains `search` (case- and accent-insensitive), in
   * `sort` order (`service` has no meaning here and is the id order). Without a search, the
   * ready array itself (do not modify it).
   */
  select(sort: SortKey, status: SavedStatusFilter, search: string): CachedAnimal[] {
    const view = this.#views[sort === 'name' ? 'name' : 'id'][status];
    const needle = searchKey(search.trim());
    if (!needle) return view.rows;
    const { rows, keys } = view;
    const matching: CachedAnimal[] = [];
    for (let i = 0; i < keys.length; i += 1) if (keys[i]!.includes(needle)) matching.push(rows[i]!);
    return matching;
  }
}

/** Collects rows chunk by chunk, keeping them sorted both ways; `build()` makes the index. */
export class SavedIndexBuilder {
  #byName: SavedEntry[] = [];
  #byId: SavedEntry[] = [];

  get size(): number {
    return this.#byId.length;
  }

  add(rows: readonly CachedAnimal[]): void {
    const entries = rows.map(toEntry);
    this.#byName = merge(this.#byName, entries.slice().sort(byName), byName);
    this.#byId = merge(this.#byId, entries.sort(byId), byId);
  }

  build(): SavedIndex {
    return new SavedIndex(this.#byName, this.#byId);
  }
}
