/** One animal's details (the deprecated `GET /pets/{petId}`, with the cached copy as fallback). Used by the app root. */
export { default as AnimalDetailScreen } from './AnimalDetailScreen.svelte';
