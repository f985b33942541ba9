/**
 * Step 3 of the start-up in one module: the root component and Svelte's `mount`, so that the
 * entry's last `import()` brings both in one chunk (src/main.ts).
 */
export { mount } from 'svelte';
export { default as App } from './App.svelte';
