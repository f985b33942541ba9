/**
 * Adding an animal: the Add animal screen, its form (fields, validation by the contract, the
 * duplicate question, the message that follows the entry) and the fields part the sync panel's
 * "Edit and resend" reuses. Used by the app root and the sync panel.
 */
export { AddAnimalFormStore } from './add-animal-form.svelte';
export { default as AddAnimalScreen } from './AddAnimalScreen.svelte';
export { default as AnimalFields } from './AnimalFields.svelte';
