/**
 * The shown profile's category names for components deep in a list (a row does not know its
 * profile): App sets a getter once, rows read it, so a row shows "2 · Cats" beside the id.
 */
import { getContext, setContext } from 'svelte';
import { CategoryLabels } from '../shared/records/categories';

const KEY = Symbol('adoption-desk.category-labels');

export function setCategoryLabels(labels: () => CategoryLabels): void {
  setContext(KEY, labels);
}

/** The names of the shown profile (none outside App, e.g. in a component test). */
export function getCategoryLabels(): () => CategoryLabels {
  return getContext<(() => CategoryLabels) | undefined>(KEY) ?? (() => CategoryLabels.empty);
}

/** "2 · Cats" when the id has a name, else "2". */
export function categoryText(labels: CategoryLabels, id: string): string {
  const name = labels.labelOf(id);
  return name ? `${id} · ${name}` : id;
}
