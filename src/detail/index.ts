/**
 * One animal's details (the deprecated `GET /pets/{petId}`, with the cached copy as fallback),
 * loaded on first visit (not part of the app's start-up). Used by the app root.
 */
export const loadAnimalDetailScreen = () => import('./AnimalDetailScreen.svelte');
