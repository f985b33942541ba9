/**
 * Category names of a profile (staff's own words for the service's category ids): the table,
 * its store, the editor on Keys and profiles, and the labels every list reads through context.
 */
export { CategoriesStore } from './categories.svelte';
export { categoryText, getCategoryLabels, setCategoryLabels } from './category-context';
export { default as CategoryEditor } from './CategoryEditor.svelte';
