/**
 * Lists of animals: the Animals screen (the service's list joined with the queue) and Saved on
 * this device (every cached animal), with their rows, search and sort; the status chip and the
 * queued rows other screens show too. Used by the app root, the add and detail screens and the
 * sync panel.
 */
export { AnimalListStore } from './animal-list.svelte';
export { default as AnimalListScreen } from './AnimalListScreen.svelte';
export { default as QueuedRows } from './QueuedRows.svelte';
export { SavedAnimalsStore } from './saved-animals.svelte';
export { default as SavedAnimalsScreen } from './SavedAnimalsScreen.svelte';
export { default as StatusChip } from './StatusChip.svelte';
