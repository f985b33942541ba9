/**
 * Adding an animal: the Add animal screen, its form (fields, validation by the contract, the
 * duplicate question, the message that follows the entry) and the fields part the sync panel's
 * "Edit and resend" reuses. Used by the app root and the sync panel.
 */
export { AddAnimalFormStore } from './add-animal-form.svelte';

/**
 * The animal's fields, for the sync panel's "Edit and resend": loaded when staff first edit an
 * entry there (the Add animal screen brings them itself), not with the app's start-up.
 */
export const loadAnimalFields = () => import('./AnimalFields.svelte');

/**
 * The Add animal screen, loaded on first visit (not part of the app's start-up: the window
 * opens on the list). Its chunk is a file of the app itself, so it loads offline as well.
 */
export const loadAddAnimalScreen = () => import('./AddAnimalScreen.svelte');
