/** Quick search by name and sorting by name or id, shared by the list and the saved view. */
import type { Animal } from '../shared/animal';
import { compareInt64 } from '../shared/int64';

export type SortKey = 'service' | 'name' | 'id';

export const SORT_LABEL: Record<SortKey, string> = {
  service: 'Service order',
  name: 'Name (A–Z)',
  id: 'ID (lowest first)',
};

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Rows whose name contains `search` (case- and accent-insensitive), in the chosen order. */
export function searchAndSort<T extends { animal: Animal }>(rows: readonly T[], search: string, sort: SortKey): T[] {
  const needle = search.trim().toLocaleLowerCase();
  const matching = needle
    ? rows.filter((row) =>
        row.animal.name
          .toLocaleLowerCase()
          .normalize('NFD')
          .replace(/\p{M}/gu, '')
          .includes(needle.normalize('NFD').replace(/\p{M}/gu, '')),
      )
    : [...rows];
  if (sort === 'name') {
    matching.sort((a, b) => collator.compare(a.animal.name, b.animal.name) || compareInt64(a.animal.id, b.animal.id));
  } else if (sort === 'id') {
    matching.sort((a, b) => compareInt64(a.animal.id, b.animal.id));
  }
  return matching;
}
